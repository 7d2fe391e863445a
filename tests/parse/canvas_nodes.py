"""Builders of JSON Canvas nodes and edges for the canvas tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "canvas" / "Project board.canvas"

Node = dict[str, Any]


def text(node_id: str, x: float, y: float, body: str, width: float = 100, height: float = 50) -> Node:
    return {"id": node_id, "type": "text", "x": x, "y": y, "width": width, "height": height, "text": body}


def group(node_id: str, x: float, y: float, width: float, height: float, label: str | None = None) -> Node:
    node: Node = {"id": node_id, "type": "group", "x": x, "y": y, "width": width, "height": height}
    if label is not None:
        node["label"] = label
    return node


def file(node_id: str, x: float, y: float, path: str, subpath: str | None = None) -> Node:
    node: Node = {"id": node_id, "type": "file", "x": x, "y": y, "width": 100, "height": 50, "file": path}
    if subpath is not None:
        node["subpath"] = subpath
    return node


def link(node_id: str, x: float, y: float, url: str) -> Node:
    return {"id": node_id, "type": "link", "x": x, "y": y, "width": 100, "height": 50, "url": url}


def edge(start: str, end: str, label: str | None = None) -> Node:
    found: Node = {"id": f"{start}-{end}", "fromNode": start, "toNode": end}
    if label is not None:
        found["label"] = label
    return found


def canvas(*nodes: Node, edges: list[Node] | None = None) -> str:
    return json.dumps({"nodes": list(nodes), "edges": edges or []})
