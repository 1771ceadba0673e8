"""One module per check (or a few close ones): each holds its `Check` values and one of
`check_map(sheet)`, `check_errata(errata, maps)`, `check_scenario(ctx)` or
`check_document(doc)`, generators of Problems. `engine.validate.registry` finds them all."""
