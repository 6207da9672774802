"""The compiled path: one numba search template specialised per kernel game."""
