"""The deterministic customer: answers what the agent actually asked, from the task's facts.

`ScriptedUser` is the user wherever no user model is configured (`user="scripted"`, the
default of `gym.make`, `tb-env validate` and the trainers). It holds a conversation
instead of saying lines in a fixed order:
- asked for details ("your email and zip code?"), it gives the matching `known_facts`;
  asked for something the task does not tell it, it says it does not know;
- asked to approve an action, it agrees when the proposal is about what it wants
  (`wants`, or the ids, amounts and objects of the task's golden writes) and declines
  when it names something it does not want (`declines`, or what the wrong paths touch),
  and it declines offers it did not ask for;
- it ends the conversation (`###STOP###`) only when its request was handled (the golden
  writes made and the required facts told) or clearly refused, or when the agent keeps
  talking without acting or answering; otherwise it restates its request.
Phrasings vary with the episode seed; the same seed and conversation give the same line.
The LLM user (`LLMUser`) stays the choice for real evaluations, on the same task data.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from tb_env.domain.normalize import contains_fact, normalize, rx
from tb_env.domain.task import Fact, Task, ToolCall
from tb_env.domain.transcript import (
    ENV_NAME,
    STOP,
    agent_texts,
    customer_lines,
    matches,
    sentences,
    tool_trace,
)
from tb_env.errors import TBEnvError

MAX_IDLE_TURNS = 3  # the agent spoke this many times in a row without acting or answering: give up

_READ_PREFIXES = ("get_", "list_", "find_", "search_", "lookup_", "check_", "calculate_", "quote_", "view_", "show_")
_WEAK = {
    "id", "number", "no", "code", "the", "of", "my", "your", "a", "an", "to", "for", "on", "is", "in", "you", "give",
    "which", "what", "when", "where", "how", "it", "that", "this", "and", "or", "with", "from", "by", "at", "as", "be",
    "want", "wants", "like", "would", "should", "please", "tell", "their", "them", "they", "his", "her",
}
# generic verbs of write tools: "add" in add_ticket_note says nothing of what the customer wants
_GENERIC_VERBS = {"add", "create", "update", "set", "make", "open", "record", "log", "submit", "save", "send", "request", "issue"}
# how customers and agents name common facts, beyond the words of the fact's key
_SYNONYMS = {
    "email": ("email", "e mail", "mail address"),
    "zip": ("zip", "zipcode", "postal", "postcode", "post code"),
    "postal": ("zip", "zipcode", "postal", "postcode", "post code"),
    "phone": ("phone", "telephone", "mobile", "cell"),
    "birth": ("birth", "born", "dob", "birthday"),
    "dob": ("birth", "born", "dob", "birthday"),
    "last4": ("last 4", "last digit", "ending"),
    "licence": ("licence", "license"),
    "license": ("licence", "license"),
    "reason": ("reason", "why"),
    "use": ("use", "used", "usage", "using"),  # ("how it will be used")
    "amount": ("amount", "how much", "sum"),
    "date": ("date", "when", "what day", "which day"),
    "employee": ("employee", "staff", "personnel"),
    "name": ("your name", "your full name", "who am i speaking", "who i am speaking", "name on the account"),
}
_ASKS = re.compile(
    r"\?|\b(please|kindly)\s+(provide|give|share|send|tell|confirm|let me know)|\b(can|could|would) you\s+(provide|give|share|tell|send|confirm)"
    r"|\blet me know\b|\bi need\b|\bi'll need\b|\bi will need\b"
)
_OK = r"(ok|okay|alright|all right|fine|correct|right)"
_OFFER = re.compile(
    r"\b(would you (also )?like|do you (also )?want|shall i|should i|want me to|like me to|would you prefer|okay if i|ok if i|"
    rf"is it ok|do you agree|happy for me|are you sure|confirm (that )?(you|this|i)|go[- ]ahead|proceed|do you wish|"
    r"is that what you'?d like|what you'?d like me to do|shall i (start|begin)|should i (start|begin)|do i have your|"
    rf"(is|would) (that|this|it) (be )?{_OK}|does (that|this) (work|sound)|sounds? good|shall we)\b"
)
# an offer of more than the customer asked for ("would you also like ...?", "sign you up")
_EXTRA = re.compile(
    r"\b(also|additionally|as well|in addition|on top of|while i'?m at it|extra|sign you up|subscribe|"
    r"enrol+|newsletter|offer you|interested in)\b"
)
# "where should I send it?" asks for a detail, it does not propose anything
# and "how much would you like to move?" asks for the amount
_WH_OFFER = re.compile(r"\b(where|when|which|what|how|who|whom)\b[^.?!]*\b(should|shall) (i|we)\b"
                       r"|\b(how much|how many|when|which|what (date|day|amount|time))\b[^.?!]*\bwould you like\b")
_ANYTHING_ELSE = re.compile(r"\banything else\b|\bsomething else\b|\bother (question|request)|\bis that all\b")
_OPENING = re.compile(r"\bhow (can|may) i (help|assist)|\bwhat can i (do|help)|\bhow can i be of\b|\bwhat do you need\b")
# a detail of the customer's own ("what is your mother's maiden name?"): not known unless a fact says so
_DATUM = re.compile(r"\bwhat('s| is| are) your\b|\b(provide|give|share|send|tell)( me)? your\b|\bdo you (have|know) your\b|\byour \w+ (number|id|code)\b")
_HOLD = re.compile(
    r"^\W*(one moment|just a moment|a moment|give me a (moment|second|minute)|hold on|please (wait|hold)|let me (check|look|see|verify|pull)|"
    r"i'?ll (check|look|verify|pull)|i am (checking|looking)|i'?m (checking|looking))"
)
# the agent says what it does next: a partial refusal is not the end of the conversation
_NEXT_STEP = re.compile(
    r"\b(i'll|i will|i'm going to|i am going to|let me|next,? i|now i|i'm now|i am now|i'm (handing|escalating|opening|"
    r"passing|creating|adding|closing|sending|booking|issuing|logging)|i am (handing|escalating|opening|passing|creating))\b"
)
_REFUSAL = re.compile(
    r"\b(can't|cannot|can not|unable to|not able to|won't be able|isn't possible|is not possible|not possible|"
    r"not eligible|isn't eligible|ineligible|not allowed|not permitted|must decline|have to decline|i'm afraid|"
    r"unfortunately|denied|declined|refuse|i am sorry, but|i'm sorry, but|no longer|outside the)\b"
)
_ID = re.compile(r"^[A-Za-z]{1,6}-?\w*\d\w*$|^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$")
# words that name the kind of a fact, not which one: "what date?" does not ask for the date of birth
_GENERIC = {"date", "day", "time", "name", "address", "amount", "type", "status", "new", "old", "current", "start", "end"}
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")

_LINES = {
    "thanks": ("Great, thank you for your help!", "Perfect, that's everything. Thanks!", "Thank you, that's all I needed."),
    "accept": ("I see. Thanks for explaining.", "Okay, I understand. Thank you anyway.", "Alright, thanks for letting me know."),
    "give_up": ("I don't think this is going anywhere. Goodbye.", "Never mind, I'll try again later. Bye."),
    "yes": ("Yes, please go ahead.", "Yes, that's right, please do.", "Yes please."),
    "no_thanks": ("No, thank you.", "No thanks, I don't need that.", "No, that's not necessary, thanks."),
    "decline": ("No, please don't do that.", "No, that's not what I want."),
    "unknown": ("Sorry, I don't know that.", "I'm not sure, I don't have that information.", "I don't have that to hand, sorry."),
    "restate": ("As I said: {request}", "To repeat my request: {request}", "Just to be clear: {request}"),
    "nudge": ("Okay.", "Alright, thanks.", "Sure."),
}


@dataclass
class Intent:
    """What the customer wants done, read once per task."""

    writes: list[ToolCall]  # the golden calls that change state
    facts: list[tuple[Fact, str]]  # required reply facts, each with where it must be said
    wants: list[str]  # terms of a proposal it agrees to
    declines: list[str]  # terms of a proposal it refuses
    known: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)  # verbs of the writes it asked for ("cancel", "refund")


def _terms_of(calls: list[ToolCall], names: bool = True) -> set[str]:
    """Ids and numbers in the calls' arguments; with `names`, also short values (a product,
    a role) and the objects the tool names act on."""
    out: set[str] = set()
    for call in calls:
        if names:
            out.update(p for p in call.name.split("_")[1:] if p not in _WEAK and len(p) > 2)
        for v in call.arguments.values():
            for item in v if isinstance(v, list) else [v]:
                text = str(item).strip()
                if not text or len(text) > 40:
                    continue
                if _ID.match(text) or _NUMBER.match(text) or (names and len(text.split()) <= 4 and not text.endswith(".")):
                    out.add(text)
    return out


def _is_write(name: str, domain_writes: set[str] | None) -> bool:
    if domain_writes is not None:
        return name in domain_writes
    return not name.startswith(_READ_PREFIXES)


def intent_of(task: Task) -> Intent:
    domain_writes: set[str] | None = None
    try:
        from tb_env.domain.registry import get_domain

        dom = get_domain(task.domain)
        if dom.tools:
            domain_writes = set(dom.write_tools)
    except TBEnvError:
        pass
    writes = [c for c in task.golden_actions if _is_write(c.name, domain_writes)]
    facts = []
    for a in task.assertions:
        if a.kind == "response_contains":
            facts += [(f, a.body.scope) for f in a.body.facts]
    wants = task.user.wants if task.user.wants is not None else sorted(_terms_of(writes))
    actions = sorted({c.name.split("_")[0] for c in writes if c.name.split("_")[0] not in _GENERIC_VERBS and len(c.name) > 3})
    if task.user.declines is not None:
        declines = task.user.declines
    else:
        golden_terms = _terms_of(task.golden_actions) | {str(v) for v in task.user.known_facts.values()}
        wrong = [c for w in task.wrong_paths for c in [*(w.append or []), *(w.replace or {}).values()]]
        # ids only: a bare number ("5 days at up to $30") names too much to refuse on sight
        declines = sorted(x for x in _terms_of(wrong, names=False) - golden_terms if not _NUMBER.match(x))
    return Intent(writes, facts, list(wants), list(declines), _known(task), actions)


def _plain(text: str) -> str:
    """Lower-cased with straight quotes and single spaces: what the cue patterns read."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").lower()
    return re.sub(r"\s+", " ", text)


_NAME = re.compile(r"^([A-Z][a-z'-]+(?: [A-Z][a-z'-]+){1,2})\b")


def _known(task: Task) -> dict[str, Any]:
    """The task's known facts, plus the customer's name when only the persona gives it."""
    known = dict(task.user.known_facts)
    name = _NAME.match(task.user.persona)
    if name and not any("name" in k for k in known):
        known["name"] = name.group(1)
    return known


_NEGATED = re.compile(r"\b(not|rather than|instead of|other than|except|apart from|but not|leaving|keep|keeping)\W+(\w+\W+){0,3}$")


def _named(text: str, term: str) -> bool:
    """`term` is named in `text` other than to rule it out ("INV-5057 (not INV-5056)")."""
    for m in rx(rf"(?<![0-9a-z]){re.escape(term.lower())}(?![0-9a-z])").finditer(text):
        if not _NEGATED.search(text[max(0, m.start() - 40) : m.start()]):
            return True
    return False


def _key_tokens(key: str) -> list[str]:
    parts = [p for p in re.split(r"[_\s-]+", key.lower()) if p]
    strong = [p for p in parts if p not in _WEAK]
    return strong or parts


def _mentions(text: str, token: str) -> bool:
    forms = _SYNONYMS.get(token, (token,))
    return any(rx(rf"(?<![0-9a-z_]){re.escape(normalize(f))}(?![0-9a-z_])").search(text) for f in forms)


_IDENTITY = {
    "email", "mail", "zip", "postal", "postcode", "phone", "mobile", "name", "first", "last", "full", "birth", "dob",
    "date", "address", "last4", "ssn", "pin", "password", "security", "employee", "member", "card", "digits", "code",
}


def untold_facts(known: dict[str, Any], messages: list[dict[str, Any]]) -> list[str]:
    """The task's own facts (not identity details) the customer has not said yet: what a
    clarifying question ("which one is it?") is after when it names no fact. A key made
    only of identity words (`zip_code`, `date_of_birth`) is an identity detail;
    `deliver_to_address` is a choice."""
    heard = customer_lines(messages)
    return [
        k for k, v in known.items()
        if not set(_key_tokens(k)) <= _IDENTITY and not any(contains_fact(h, str(v)) for h in heard)
    ]


def asked_facts(question: str, known: dict[str, Any]) -> list[str]:
    """The keys of `known` the agent's message asks about, most specific first."""
    text = normalize(question)
    hits: dict[str, set[str]] = {}
    for key in known:
        tokens = _key_tokens(key)
        found = {t for t in tokens if _mentions(text, t)}
        if found and not (found <= _GENERIC and set(tokens) - _GENERIC):
            hits[key] = found
    # "what date should the rental start?" asks for the rental start date, not the birth date
    return [k for k, toks in hits.items() if not any(toks < other for o, other in hits.items() if o != k)]


_DATES = re.compile(r"\b(?:\d{4}_)?(\d{2})_(\d{2})\b")
_STREET = re.compile(r"\b\d{1,5} [a-z]+(?: [a-z]+)? (?:st|street|rd|road|ave|avenue|ln|lane|dr|drive|ct|court|way|blvd|pl|place)\b")
_PLACE_LABELS = ("home", "work", "office", "parents", "billing", "shipping", "mailing")


_BOTH = re.compile(r"\b(?:both|all of|all \w+ of|each of|as well as|together with|along with)\b")


def contradicted(known: dict[str, Any], said: str) -> list[str]:
    """The customer's own facts that a proposal gets wrong: a date other than the one it
    gave ("effective today" when it said the 4th), the option it did not choose (a
    replacement when it wants a refund: keys like `replacement_vs_refund`), another
    address than the one it named. Identity details are left out."""
    text = normalize(said)
    wrong = []
    for key, value in known.items():
        tokens = _key_tokens(key)
        if set(tokens) <= _IDENTITY and "address" not in tokens:
            continue
        v = normalize(str(value))
        if (mine := _DATES.findall(v)) and (theirs := _DATES.findall(text)) and not set(mine) & set(theirs):
            wrong.append(key)
        elif "vs" in key.split("_") or "or" in key.split("_"):
            options = [o for o in re.split(r"_(?:vs|or)_", key.lower()) if o]
            others = [o for o in options if o.replace("_", " ") not in v]
            if others and any(rx(rf"\b{re.escape(normalize(o.replace('_', ' ')))}").search(text) for o in others) \
                    and not contains_fact(said, str(value)):
                wrong.append(key)
        elif "address" in tokens and _other_address(text, v):
            wrong.append(key)
    return wrong


def _other_address(text: str, mine: str) -> bool:
    """The proposal names a street, or a labelled address ("your home address"), other than mine."""
    streets = _STREET.findall(text)
    if streets and not any(s in mine for s in streets):
        return True
    labels = [w for w in _PLACE_LABELS if rx(rf"\b{w} address").search(text)]
    return bool(labels) and not any(w in mine for w in labels)


def _spoken(key: str, value: Any) -> str:
    """`zip_code` -> "zip code: 97201": neutral, since a fact may be about someone else."""
    words = " ".join(p for p in re.split(r"[_\s]+", key) if p)
    return f"{words}: {value}"


class ScriptedUser:
    """The deterministic, responsive customer (see the module docstring).

    Stateless between calls: everything it needs is in the task and the messages, so one
    instance serves any number of concurrent episodes."""

    def __init__(self) -> None:
        self._intents: dict[str, tuple[Task, Intent]] = {}

    def intent(self, task: Task) -> Intent:
        cached = self._intents.get(task.id)
        if cached is None or cached[0] is not task:  # a task edited under the same id gets its own
            if len(self._intents) > 4096:
                self._intents.clear()
            cached = self._intents[task.id] = (task, intent_of(task))
        return cached[1]

    async def reply(self, task: Task, messages: list[dict[str, Any]], seed: int | None = None) -> str:
        return self.respond(task, messages, seed)

    def respond(self, task: Task, messages: list[dict[str, Any]], seed: int | None = None) -> str:
        intent = self.intent(task)
        turn = len(customer_lines(messages))
        rng = random.Random(f"{seed}:{task.id}:{turn}")

        def say(kind: str, **fmt: str) -> str:
            return rng.choice(_LINES[kind]).format(**fmt)

        last = next((m for m in reversed(messages) if m.get("role") == "assistant"), None)
        said = (last or {}).get("content") or ""
        text = _plain(said)
        trace = tool_trace(messages)
        handled = self.handled(intent, trace, messages)
        asks = bool(_ASKS.search(" ".join(sentences(text))))  # (not a question quoted or in brackets)

        parts: list[str] = []
        offer = asks and bool(_OFFER.search(text)) and not _WH_OFFER.search(text)
        wrong = contradicted(intent.known, said) if offer else []
        keys = [k for k in asked_facts(said, intent.known) if k not in wrong] if asks else []
        if offer:  # "shall I remove AWS-DEV from ...?" names facts it already has: no need to repeat them
            keys = [k for k in keys if not contains_fact(said, str(intent.known[k]))]
        if keys:
            answer = "; ".join(_spoken(k, intent.known[k]) for k in keys)
            parts.append(("Sure: " if len(keys) > 1 else "") + answer[0].upper() + answer[1:] + ".")
        if wrong:  # "effective today?" when it said the 4th: it corrects the proposal
            answer = "; ".join(_spoken(k, intent.known[k]) for k in wrong)
            parts.append(f"No, that's not right: {answer}.")
        elif offer:
            decision = self._decide(intent, said, text)
            if not keys or decision != "no_thanks":  # "should I ... your email?" asked for a detail
                parts.append(say(decision))
        if parts:
            return " ".join(parts)
        if asks:
            if _ANYTHING_ELSE.search(text):
                return say("thanks") + " " + STOP if handled else say("restate", request=self.request(task))
            if _OPENING.search(text):
                return self.request(task)
            if _DATUM.search(text):
                return say("unknown")
            untold = untold_facts(intent.known, messages)
            if untold:  # a clarifying question: tell what the task says and was not said yet
                answer = "; ".join(_spoken(k, intent.known[k]) for k in untold)
                return answer[0].upper() + answer[1:] + "."
            return say("restate", request=self.request(task))
        # a statement
        if _HOLD.search(text):
            return say("nudge")  # the agent is still working on it
        if handled:
            return say("thanks") + " " + STOP
        if _REFUSAL.search(text) and not _NEXT_STEP.search(text):
            return say("accept") + " " + STOP
        if self._idle(messages) >= MAX_IDLE_TURNS:
            return say("give_up") + " " + STOP
        if trace and trace[-1].index > self._last_customer_index(messages):
            return say("nudge")  # it is working on it
        return say("restate", request=self.request(task))

    @staticmethod
    def request(task: Task) -> str:
        return task.user.first_message

    def handled(self, intent: Intent, trace: list[Any], messages: list[dict[str, Any]]) -> bool:
        """The golden writes were made (same tools, same ids) and the answer holds the required facts."""
        done = [c for c in trace if c.ok]
        for call in intent.writes:
            ids = {k: v for k, v in call.arguments.items() if isinstance(v, str) and _ID.match(v.strip())}
            hit = next((c for c in done if matches(c, call.name, ids)), None)
            if hit is None:
                return False
            done.remove(hit)
        if not intent.writes and not trace:
            return False  # nothing looked up yet: not an answer
        said = {scope: agent_texts(messages, scope) for scope in {s for _, s in intent.facts}}
        return all(f.stated_in(said[scope]) for f, scope in intent.facts)

    @staticmethod
    def _decide(intent: Intent, said: str, text: str) -> str:
        """`yes`, `decline` (it names what the customer does not want) or `no_thanks` (an
        offer of something more than it asked for). A proposal that names neither is the
        agent checking its plan ("shall I do that?", "shall I start?"): yes."""
        asked_for = any(contains_fact(said, w) for w in intent.wants) or any(
            rx(rf"\b{re.escape(v)}").search(text) for v in intent.actions
        )
        if any(_named(text, d) for d in intent.declines):
            # (what it wants named beside it is the proposal; the other is context: "charge 172.81, the 157.81
            # instalment plus the late fee?", "only CLM-7003, and CLM-7004 stays open?"), unless both are proposed
            named_wanted = any(contains_fact(said, w) for w in intent.wants if re.search(r"\d", w))
            if not named_wanted or _BOTH.search(text):
                return "decline"
        if _EXTRA.search(text) and not asked_for:
            return "no_thanks"
        return "yes"

    @staticmethod
    def _last_customer_index(messages: list[dict[str, Any]]) -> int:
        return max((i for i, m in enumerate(messages) if m.get("role") == "user" and m.get("name") != ENV_NAME), default=-1)

    @staticmethod
    def _idle(messages: list[dict[str, Any]]) -> int:
        """How many agent messages in a row, ending now, came without a tool call in between."""
        n = 0
        for m in reversed(messages):
            if m.get("role") == "assistant":
                if m.get("tool_calls"):
                    break
                n += 1
            elif m.get("role") == "tool":
                break
        return n
