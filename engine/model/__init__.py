"""The data model: maps, boards, counters, tables and scenarios, loaded from YAML."""
