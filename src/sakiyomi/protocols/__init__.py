"""Engine protocols (UCI for chess, USI for shogi) over a shared engine loop."""
