"""Tests for the MCP server: `askvault mcp` driven over stdio by the official SDK client."""
