"""Release chores run from the repository root: version bump, version and manifest checks, plugin bundle."""
