"""Reports: diagnostics (codes, severities, citations), the check report, its renderers, and the record as JSON."""
