"""The base layer: diagnostics (errors), the YAML reader (yamlsource), package files
(resources), the Paper table (paper), signals (interrupts)."""
