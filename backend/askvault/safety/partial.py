"""The partial-answer rule: what an answer stream ends with, once for every way an answer can end."""

from __future__ import annotations

from askvault.safety.answer import SafeAnswer, neutralise_answer


class AnswerSoFar:
    """An answer's text as the model streams it, and what of it an ending may carry.

    Tokens go out as the model wrote them: a client renders the stream by the same rules (the plugin's
    plugin/src/answer/neutralise.ts) or prints it as plain text (the CLI), and a fence or link split over tokens
    cannot be judged token by token. What is decided here is the text the stream *ends* with:

    - finished (`final`): the whole answer made inert, and what was taken out;
    - cut short (`partial`: a model error, a failure, a stream that stops without its done event): everything
      that arrived, made inert as a whole answer. Nothing is held back: an unclosed fence stays code, a link cut
      in half stays text; the raw tokens never reach a field a client keeps;
    - cancelled (the client went away): nothing, there is nobody left to send it to.
    """

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._chars = 0

    def add(self, text: str) -> None:
        self._parts.append(text)
        self._chars += len(text)

    @property
    def chars(self) -> int:
        return self._chars

    @property
    def raw(self) -> str:
        """The text as the model wrote it: for checks on the model's output (repetition), never to be shown."""
        return "".join(self._parts)

    def partial(self) -> str:
        """The text an answer cut short ends with (an error event's `partial`); "" when nothing arrived."""
        raw = self.raw
        return neutralise_answer(raw).text if raw else ""

    def final(self) -> SafeAnswer:
        """The answer as it may be kept and rendered (the done event's `answer` and `neutralised`)."""
        return neutralise_answer(self.raw)
