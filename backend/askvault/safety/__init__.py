"""Answer safety, the stage after the chat model: what of its output may be shown (`answer`, `partial`)."""
