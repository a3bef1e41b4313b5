"""The pure rules engine: tiles, layout, games, state, views, records."""
