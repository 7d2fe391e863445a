"""Build hook: a wheel or sdist of askvault carries the built plugin, current and at the package's version, or fails."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.errors import SetupError

# The build runs this file before askvault is installed anywhere: import the bundle checks from the source beside it.
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from askvault.plugin_bundle import BUNDLE_DIR, checkout_files, folder_files, missing, problems, stale  # noqa: E402

HOW = "Run `make wheel` from the repository root: it builds the plugin and copies it into the package."
# For an image or a private build that never installs the plugin (the Docker sidecar): the check is skipped.
WITHOUT_PLUGIN = "ASKVAULT_BUILD_WITHOUT_PLUGIN"


def require_bundle(version: str) -> None:
    """Refuses a build whose bundled plugin is missing, foreign, at another version or older than the checkout's."""
    if os.environ.get(WITHOUT_PLUGIN) == "1":
        print(f"askvault: {WITHOUT_PLUGIN}=1, building without checking the bundled plugin", file=sys.stderr)
        return
    bundle = folder_files(BUNDLE_DIR)
    found = problems(bundle, version)
    # Only a checkout (not an unpacked sdist) has plugin sources to compare the bundle with.
    current = checkout_files(HERE.parent)
    if not found and (HERE.parent / "plugin" / "package.json").is_file() and not missing(current):
        found = [f"{name} differs from the checkout's current build" for name in stale(bundle, current)]
    if found:
        where = BUNDLE_DIR.relative_to(HERE)
        raise SetupError(f"askvault: the bundled plugin in {where}/ is not usable: {'; '.join(found)}. {HOW}")


class CheckedBuildPy(build_py):
    def run(self) -> None:
        # An editable install runs the plugin from the checkout, so it needs no bundle.
        if not self.editable_mode:
            require_bundle(self.distribution.get_version())
        super().run()


class CheckedSdist(sdist):
    def run(self) -> None:
        require_bundle(self.distribution.get_version())
        super().run()


setup(cmdclass={"build_py": CheckedBuildPy, "sdist": CheckedSdist})
