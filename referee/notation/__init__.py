"""The notation: the .gwy grammar, the reader that turns text into records, its fast lane, and the formatter."""
