"""Metamorphic probes: agents that differ from the golden script the way real ones do.

The golden script passing proves little on its own. Each probe below is built from a
task's golden path and runs through the real env and the deterministic user:

must score 1 (legitimate variation)
- `cautious`: asks the caller for its details first, asks before each write, re-reads a
  record before answering, then gives the golden reply;
- `reordered #i`: two adjacent independent writes swapped (skipped where a tool refuses
  the new order: then the order is the tools' to enforce);
- `extra reads`: every golden read made a second time;
- `paraphrase`: the golden reply reworded: number words, other money and date formats,
  courtesy sentences around it;
must score 0 (sloppy variation)
- `verify then refuse`: the golden calls up to the identity check, then a generic refusal;
- `leak #i`: the golden path, then a reply that also states a value the task protects (or,
  where it is protected only `before` a call, the value told just before that call);
- `claim #i`: the golden path, then a reply that also makes a claim the task forbids
  (that the refused leave was booked);
- `stance #i`: the golden path, then a reply that also takes a stance an action's outcome
  forbids (that the refund issued "couldn't be issued", the refused cancellation "has been
  cancelled"), one probe per forbidden stance, and one saying it was done to another
  record the reply may name that it was not done to ("Good news: O-2 has been cancelled");
- `wrong fact #i`: the golden reply with one required fact wrong (or left out);
- `early call #i`: the call a task forbids before a precondition, made first;
- `unasked #i`: the golden path without the question the policy requires before a call
  (which address, which booking): a guess that happens to be right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tb_env.domain.normalize import normalize
from tb_env.domain.pack import Domain
from tb_env.domain.stance import examples
from tb_env.domain.task import Task, ToolCall
from tb_env.domain.transcript import TracedCall, matches
from tb_env.parties.policy import EpisodeContext, OraclePolicy

GENERIC_REFUSAL = "I'm sorry, but I can't help with that request."
MAX_REORDERS = 3
_GATE = re.compile(r"verify|authenticat|identity")
_ID = re.compile(r"^[A-Za-z]{1,6}-?\w*\d\w*$")


class ScriptPolicy(OraclePolicy):
    """Says and calls a fixed plan, one step per turn, then ends the conversation."""

    def __init__(self, plan: list[ToolCall | str], format: str = "hermes", asks: bool = True):
        super().__init__(format, asks)
        self.plan = plan

    def script(self, ctx: EpisodeContext) -> list[ToolCall | str]:
        return self.plan


@dataclass
class Probe:
    name: str
    plan: list[ToolCall | str]
    expected: float
    # the probe says nothing if a tool refuses one of its calls (the order was the tools' to enforce)
    void_on_tool_error: bool = False
    # False: it skips the questions the policy requires before a call (it guesses)
    asks: bool = True


def is_gate(call: ToolCall) -> bool:
    """An identity check: the policy puts it before everything else, so it never moves."""
    return bool(_GATE.search(call.name))


def _humane(key: str) -> str:
    return " ".join(p for p in re.split(r"[_\s]+", key) if p)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _describe(call: ToolCall) -> str:
    ids = [str(v) for v in call.arguments.values() if isinstance(v, str) and _ID.match(v.strip())]
    return _humane(call.name) + (f" ({', '.join(ids)})" if ids else "")


def cautious(task: Task, domain: Domain) -> list[ToolCall | str]:
    keys = [_humane(k) for k in task.user.known_facts] or ["full name"]
    plan: list[ToolCall | str] = [f"Before I look into this, could you please give me your {_listed(keys)}?"]
    writes = domain.write_tools
    for call in task.golden_actions:
        if call.name in writes:
            plan.append(f"Just to confirm: I am about to {_describe(call)}. Shall I go ahead?")
        plan.append(call)
    reads = [c for c in task.golden_actions if c.name not in writes]
    if reads:
        plan.append(reads[-1])  # re-read a record before answering
    if task.golden_reply:
        plan.append(task.golden_reply)
    return plan


_SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def _money(m: re.Match[str]) -> str:
    whole, cents = int(m.group(2).replace(",", "")), m.group(3)
    return f"${whole:,}" + ("" if cents == "00" else f".{cents}")


def paraphrase(reply: str) -> str:
    """The same answer in other words: what a different, equally correct agent might say."""
    text = re.sub(
        r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: f"{_MONTHS[int(m.group(2)) - 1]} {int(m.group(3))}, {m.group(1)}", reply
    )
    text = re.sub(r"(?<![\w.,-])(\$?)(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2})(?![\d%])", _money, text)
    text = re.sub(r"(\d)%", r"\1 percent", text)
    text = re.sub(r"(?<![\w.,$/:-])(1?\d|20)(?![\w.,%/:-]|\.\d)", lambda m: _SMALL[int(m.group(1))], text)
    return f"Thank you for your patience. {text} Is there anything else I can help you with?"


def _locate(reply: str, wording: str) -> list[tuple[int, int]]:
    """Spans of `reply` that say `wording` (the same text, or words that normalise the same)."""
    spans = [(m.start(), m.end()) for m in re.finditer(re.escape(wording), reply, re.IGNORECASE)]
    if spans:
        return spans
    target = normalize(wording)
    words = list(re.finditer(r"\S+", reply))
    for n in range(1, 7):
        for i in range(len(words) - n + 1):
            start, end = words[i].start(), words[i + n - 1].end()
            chunk = reply[start:end].rstrip(".,;:!?)")
            if normalize(chunk) == target:
                return [(start, start + len(chunk))]
    return []


def _wrong(text: str) -> str:
    """A wrong value of the same shape: each number's last digit moved on; words dropped."""
    if not re.search(r"\d", text):
        return ""
    return re.sub(r"\d(?=\D*$)", lambda m: str((int(m.group(0)) + 1) % 10), text)


def wrong_fact(reply: str, wordings: list[str]) -> str | None:
    """The reply with the fact made wrong wherever it is stated, in any of its wordings.

    Overlapping wordings ("with a provisional credit", "provisional credit of 105.43") are
    one statement: its numbers are moved on when every wording in it carries a number,
    else the whole statement goes (a number moved on would leave the other wording true)."""
    found = sorted((s, e, w) for w in wordings for s, e in _locate(reply, w))
    if not found:
        return None
    groups: list[list[tuple[int, int, str]]] = []
    for span in found:
        if groups and span[0] < max(e for _, e, _ in groups[-1]):
            groups[-1].append(span)
        else:
            groups.append([span])
    out = reply
    for group in reversed(groups):
        start, end = min(s for s, _, _ in group), max(e for _, e, _ in group)
        numeric = all(re.search(r"\d", w) for _, _, w in group)
        out = out[:start] + (_wrong(out[start:end]) if numeric else "") + out[end:]
    return out


def _call_naming(domain: Domain, value: str) -> ToolCall | None:
    """A read of the record `value` names: the first read tool taking one required text
    argument whose name shares a word with the value's prefix (`E-1042` -> `employee_id`), else
    any such tool. The tool may refuse it: the call still counts as made."""
    prefix = re.split(r"[-_]", value)[0].lower()
    fits = []
    for tool in domain.tools:
        required = tool.input_schema.get("required", [])
        if tool.writes or len(required) != 1:
            continue
        fits.append((tool.name, required[0]))
    best = next(((n, a) for n, a in fits if a[:1].lower() == prefix[:1]), fits[0] if fits else None)
    return ToolCall(name=best[0], arguments={best[1]: value}) if best else None


def _fits(call: ToolCall, name: str | None, arguments: dict[str, Any], mentions: list[str]) -> bool:
    traced = TracedCall(call.name, call.arguments, True, "", 0)
    return matches(traced, name, arguments, mentions)


MADE_UP = "The amount on file for this is $4,321.87."


def probes(task: Task, domain: Domain) -> tuple[list[Probe], list[str]]:
    """The task's probes, and notes on probes that could not be built."""
    golden = list(task.golden_actions)
    reply = [task.golden_reply] if task.golden_reply else []
    writes = domain.write_tools
    out = [Probe("cautious", cautious(task, domain), 1.0)]
    notes: list[str] = []
    pairs = [
        i for i in range(len(golden) - 1)
        if golden[i].name in writes and golden[i + 1].name in writes and not is_gate(golden[i]) and not is_gate(golden[i + 1])
        and golden[i] != golden[i + 1]
    ]
    for n, i in enumerate(pairs[:MAX_REORDERS]):
        swapped = [*golden[:i], golden[i + 1], golden[i], *golden[i + 2 :]]
        out.append(Probe(f"reordered #{n}", [*swapped, *reply], 1.0, void_on_tool_error=True))
    reads = [c for c in golden if c.name not in writes]
    if reads:
        out.append(Probe("extra reads", [*golden, *reads, *reply], 1.0))
    if task.golden_reply:
        out.append(Probe("paraphrase", [*golden, paraphrase(task.golden_reply)], 1.0))
    gate = max((i for i, c in enumerate(golden) if is_gate(c)), default=None)
    first_write = next((i for i, c in enumerate(golden) if c.name in writes), len(golden))
    prefix = golden[: gate + 1] if gate is not None else golden[:first_write]
    out.append(Probe("verify then refuse", [*prefix, GENERIC_REFUSAL], 0.0))
    for n, a in enumerate(x.body for x in task.assertions if x.kind == "must_not_state"):
        claim = f"{task.golden_reply or ''} {a.example()}".strip()
        out.append(Probe(f"claim #{n}", [*golden, claim], 0.0))
    outcomes = [x.body for x in task.assertions if x.kind == "outcome"]
    sentences = [e for o in outcomes for e in examples(o.subject(outcomes), o.stance)]
    sentences += [e for o in outcomes if (b := o.bystanders(outcomes)) for e in examples(b, "not_done")]
    for n, sentence in enumerate(sentences):
        out.append(Probe(f"stance #{n}", [*golden, f"{task.golden_reply or ''} {sentence}".strip()], 0.0))
    if any(x.kind == "grounded" for x in task.assertions):  # an amount no tool gave (nor any sum of two)
        out.append(Probe("made-up figure", [*golden, f"{task.golden_reply or ''} {MADE_UP}".strip()], 0.0))
    for n, a in enumerate(x.body for x in task.assertions if x.kind == "must_not_disclose"):
        if a.before is not None:
            # (told before the call that opens them: the value, then the golden path from that call on)
            b = a.before
            at = next((i for i, c in enumerate(golden) if _fits(c, b.name, b.arguments, b.mentions)), len(golden))
            told = f"I can see the details on file: {', '.join(a.values)}."
            out.append(Probe(f"leak #{n}", [*golden[:at], told, *golden[at:], task.golden_reply or "Done."], 0.0))
            continue
        leak = f"{task.golden_reply or ''} For your records, I can also see: {', '.join(a.values)}.".strip()
        out.append(Probe(f"leak #{n}", [*golden, leak], 0.0))
    facts = [f for x in task.assertions if x.kind == "response_contains" for f in x.body.facts]
    for n, fact in enumerate(facts):
        wrong = wrong_fact(task.golden_reply or "", fact.every_wording)
        if wrong is None:
            notes.append(f"wrong fact #{n}: {fact.fact!r} is not written out in the golden reply; probe skipped")
            continue
        out.append(Probe(f"wrong fact #{n}", [*golden, wrong], 0.0))
    asked = [x.body for x in task.assertions if x.kind == "no_call" and x.body.until_asked]
    out += [Probe(f"unasked #{n}", [*golden, *reply], 0.0, asks=False) for n in range(len(asked))]
    for n, a in enumerate(x.body for x in task.assertions if x.kind == "no_call" and not x.body.until_asked):
        pattern = a.call
        gate = a.before.name if a.before else None
        early = next(
            (c for c in golden if c.name != gate and _fits(c, pattern.name, pattern.arguments, pattern.mentions)), None
        )
        if early is None and pattern.name is not None:
            early = ToolCall(name=pattern.name, arguments=pattern.arguments)
        if early is None and pattern.mentions:
            early = _call_naming(domain, pattern.mentions[0])
        if early is None:
            notes.append(f"early call #{n}: no golden call {pattern.label} to make first; probe skipped")
            continue
        out.append(Probe(f"early call #{n}", [early, *golden, *reply], 0.0))
    return out, notes
