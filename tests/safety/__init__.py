"""Tests of the answer safety stage: the neutraliser, judged by a real renderer, and the partial-answer rule."""
