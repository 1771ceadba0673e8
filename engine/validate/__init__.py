"""Validation: schema first, then references and rules; every problem located in its file."""
