"""One module per report section; each ``add(builder, run, ...)`` appends its section (or nothing)."""
