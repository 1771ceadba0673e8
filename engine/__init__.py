"""Iron Cross rules and geometry: pure Python, no Qt (enforced by an import-linter contract)."""
