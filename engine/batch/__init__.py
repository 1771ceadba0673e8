"""Batch playtests: many AI-vs-AI games of a scenario, on this machine or a Dask cluster, and the
balance report a designer reads (issue 21; docs/balance.md). No Qt here."""
