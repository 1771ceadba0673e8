"""One module per check. Each has `ID`, `RULE`, `SEVERITY`, a one-line `SUMMARY`, and a
`check(...)` generator of Problems; `engine.validate.runner` collects them all."""
