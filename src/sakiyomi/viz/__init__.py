"""Pictures of the search: tracers, tree renderers (SVG, DOT, text), plots."""
