"""Parse stage (pure): note text to a `Note` — `note.parse_note`, `links.LinkResolver`, `decode.decode_note`."""
