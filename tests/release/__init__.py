"""Tests of the release chores: one version everywhere, the wheel that carries the plugin, the workflows."""
