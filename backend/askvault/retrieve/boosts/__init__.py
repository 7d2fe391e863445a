"""The boosts that refine a hybrid search's fused ranking: one step per module, run in `steps.STEPS` order."""
