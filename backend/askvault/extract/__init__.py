"""Text out of non-Markdown files (PDFs), read in a child process so that a hostile file cannot harm the sidecar."""
