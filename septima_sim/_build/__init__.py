"""Build machinery: which modules mypyc compiles, and what a process is running (compiled or pure Python)."""
