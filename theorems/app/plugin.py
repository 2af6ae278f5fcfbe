from theorems.engine.plugin import *  # noqa: F401,F403 - local shim, not for commit (main moved the plugin to theorems/app)
