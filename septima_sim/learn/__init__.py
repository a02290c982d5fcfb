"""The learned evaluator (issue #33): the features of a seat's position (``features``), the numpy value model
(``model``), self-play data through the runner (``data``) and ``septima-sim learn`` (``run``). The players that use it
are ``septima_sim/players/learned.py`` (``learned``, ``vsearch:N``)."""
