"""Generate stage: the grounded prompt and the streamed chat model."""
