"""The game protocol: what a game plugin hands over (plugin, pieces), the engine shape
(state) and values (api), the registered games (registry)."""
