"""Name resolution: turning what a scanned file spells into PyTorch's public API names."""
