"""The answer pipeline: retrieve, build the prompt, stream the model, map citations."""
