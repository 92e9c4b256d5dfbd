"""The vocabulary a task template speaks: the caller, golden calls, assertions, wrong paths.

A template returns one `TaskSpec`: who calls and what they know (`Caller`), the rows the
scene adds (`Scene.patch()`), the golden calls (`Golden`), the golden reply, what must be
true at the end (`exists`, `unchanged`, `says`, `must_not_disclose`, `no_call`, ...) and
the plausible mistakes that must score 0 (`drop`, `append`, `replace`, `reply`). Every
helper returns the plain data of the task file format (`tb_env.domain.task`), so what a
template builds is exactly what the YAML holds.

Fidelity rules the helpers carry (docs/adding-a-domain.md, "Writing tasks that grade right"):
- a reply fact is required only where the customer asked for it or the policy demands
  it, and says `why`;
- a choice the expected state depends on is a fact the caller gives when asked (a
  `Caller.facts` entry), never a choice the customer does not state;
- what this caller may not be told goes in `must_not_disclose`; an order the policy
  imposes (verify before reading) goes in `no_call(..., before=...)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tb_env.domain.task import WRONG_PATH_TAGS

Scope = Literal["answer", "final", "any"]


def call(name: str, /, **arguments: Any) -> dict[str, Any]:
    """A tool call; arguments given as None are left out (the tool's default applies)."""
    return {"name": name, "arguments": {k: v for k, v in arguments.items() if v is not None}}


class Golden:
    """The golden calls of a task; `add` returns the call's index, for wrong paths."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def add(self, name: str, /, **arguments: Any) -> int:
        self.calls.append(call(name, **arguments))
        return len(self.calls) - 1

    def __len__(self) -> int:
        return len(self.calls)


@dataclass
class Caller:
    """The customer: who they are, what they want, what they can tell when asked.

    `facts` are everything the deterministic user (and an LLM user) may reveal: identity
    details, which record, dates, amounts, and every choice the expected state depends on.
    `wants` / `declines`: terms of proposals it agrees to or refuses (ids, amounts, action
    words); left None they are read off the golden writes and the wrong paths."""

    persona: str
    goal: str
    first_message: str
    facts: dict[str, Any] = field(default_factory=dict)
    wants: list[str] | None = None
    declines: list[str] | None = None
    instructions: str | None = None

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "persona": self.persona, "goal": self.goal, "known_facts": dict(self.facts), "first_message": self.first_message,
        }
        for key in ("wants", "declines"):
            if getattr(self, key) is not None:
                out[key] = [str(v) for v in getattr(self, key)]
        if self.instructions is not None:
            out["instructions"] = self.instructions
        return out


# -- assertions ------------------------------------------------------------------------------


def exists(table: str, **where: Any) -> dict[str, Any]:
    return {"row_exists": {"table": table, "where": where}}


def absent(table: str, **where: Any) -> dict[str, Any]:
    return {"row_absent": {"table": table, "where": where}}


def unchanged(table: str, id: Any, *columns: str) -> dict[str, Any]:
    body: dict[str, Any] = {"table": table, "id": id}
    if columns:
        body["columns"] = list(columns)
    return {"row_unchanged": body}


def count(table: str, n: int, **where: Any) -> dict[str, Any]:
    return {"row_count": {"table": table, "where": where, "count": n}}


def fact(
    value: Any,
    why: str,
    *more: Any,
    aliases: list[Any] | tuple[Any, ...] = (),
    near: list[str] | tuple[str, ...] = (),
    may_be_negated: bool = False,
    owner: list[str] | tuple[str, ...] = (),
    rivals: list[str] | tuple[str, ...] = (),
    alternatives: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
    alone: list[str] | tuple[str, ...] = (),
) -> dict[str, Any]:
    """One required reply fact: `value` in any wording the normaliser folds together, or
    one of its aliases (given after `why`, or as `aliases=[...]`) where wording
    legitimately differs; `why` names the policy rule or the customer's question that
    requires it; `near` (role words, one of which must stand near it in the same clause)
    where two facts of a task could swap places (a fee and a refund). A fact right after
    a negation does not count ("couldn't close" does not say "closed", "couldn't set it to
    22:00" does not state 22:00); `may_be_negated` where the fact names what is missing
    or refused ("doesn't include collision coverage", "I can't waive the $25"). `owner` / `rivals`: where the reply lists several things (two
    products, a check-in and a check-out date), the names of the thing this value belongs
    to and of the others; the nearest name must be its own. `alternatives`: other
    `fact(...)`s, each with its own role, any one of which states this one (the new annual
    premium near "premium", or the prorated change near "charge"); unlike an alias, an
    alternative said in the wrong role still fails. `alone`: names none of which may stand in
    the same text for it to count (one hotel named alone answers "which is cheapest"; a list
    of every hotel does not)."""
    out: dict[str, Any] = {"fact": str(value), "why": why}
    if more or aliases:
        out["aliases"] = [str(a) for a in (*more, *aliases)]
    if near:
        out["near"] = list(near)
    if may_be_negated:
        out["may_be_negated"] = True
    if owner:
        out["owner"], out["rivals"] = list(owner), list(rivals)
    if alternatives:
        out["alternatives"] = [_without_why(alt) for alt in alternatives]
    if alone:
        out["alone"] = list(alone)
    return out


def _without_why(f: dict[str, Any]) -> dict[str, Any]:
    """A `fact(...)` used inside another assertion, which carries the why."""
    return {k: v for k, v in f.items() if k != "why"}


def says(*facts: Any, why: str | None = None, scope: Scope = "answer") -> dict[str, Any]:
    """The agent tells the customer these facts (in its answer, by default). A fact is a
    `fact(...)`, or a plain value that takes the shared `why`."""
    items = []
    for f in facts:
        if isinstance(f, dict):
            items.append(f)
        elif why is None:
            raise ValueError(f"says({f!r}): give each fact a why (fact(value, why=...)) or a shared why=...")
        else:
            items.append(fact(f, why))
    body: dict[str, Any] = {"facts": items}
    if scope != "answer":
        body["scope"] = scope
    return {"response_contains": body}


def says_not(*facts: Any, why: str, scope: Scope = "answer") -> dict[str, Any]:
    """Claims the agent must not make (`must_not_state`): that what was refused or is
    pending was done (`says_not(fact("booked", "", near=["leave"]), why=...)`), or a value in
    a role it does not have. A claim after a negation ("I couldn't book it") is none."""
    items = [_without_why(f) if isinstance(f, dict) else {"fact": str(f)} for f in facts]
    return {"must_not_state": {"facts": items, "why": why, "scope": scope}}


# an account said settled ("fully paid up with nothing else due") where an instalment or invoice still is: not
# "you're all caught up" or "up to date", which say nothing overdue remains
_ALL_SETTLED = ("nothing else due", "nothing else is due", "nothing more due", "nothing more is due", "nothing further due",
                "nothing further is due", "nothing left to pay", "nothing left owing", "nothing else owing",
                "nothing else to pay", "nothing more to pay", "no other balance", "no remaining balance", "no balance left",
                "no balance remaining", "no more payments", "fully paid up", "owe nothing", "owe nothing more",
                "not owe anything", "no longer owe anything", "zero balance", "balance is now zero", "balance is now 0",
                "balance is 0", "balance is zero", "account is settled", "account is fully settled", "account is clear",
                "account is now clear", "account is now settled", "account is now fully settled", "paid off in full",
                "fully paid off")


def still_owing(what: str) -> dict[str, Any]:
    """The account said settled where `what` (the next instalment, another invoice) is still to pay."""
    return says_not(*_ALL_SETTLED, why=f"{what} is still to pay: the account said settled is false")


# words an agent reports its own write in ("I've refunded", "I also refunded", "I went ahead and refund..."),
# also as the second verb of a compound ("I've reported it and escalated it to the team")
_FIRST_PERSON = ("i have {pp}", "i have also {pp}", "i have now {pp}", "i have just {pp}", "i also {pp}", "i {pp}",
                 "we have {pp}", "i have gone ahead and {pp}", "i went ahead and {v}",
                 "and {pp} it", "and {pp} your", "and {pp} the", "and also {pp}", "and have {pp}", "and have also {pp}")
# verbs a reply may report another write in: money refunded is "credited", a dispute withdrawn "cancelled"
# (a changed value is "replaced" or "switched": "I've replaced your old number with ...")
# (a level or limit moved up is "raised", down "lowered": "I've raised your KYC level to standard")
_RELATED = {"refund": ("credit",), "withdraw": ("cancel",), "cancel": ("withdraw",), "update": ("replace", "switch"),
            "upgrade": ("raise", "move"), "downgrade": ("lower", "move")}
UNASKED_WHY = ("policy, Communicating: never tell the customer something was done that was not: the golden path made "
               "no such write")


def unasked_writes(claims: dict[str, tuple[str, ...]], calls: list[dict[str, Any]], assertions: list[dict[str, Any]],
                   reply: str | None = None, why: str = UNASKED_WHY) -> dict[str, Any] | None:
    """The writes the agent must not say it made (`must_not_state`), in the first person ("I've
    escalated the ticket", "I also refunded the shipping fee"): every verb of `claims` (a write
    tool -> the verbs a reply reports it in) except those of the writes the golden path made and
    the actions its outcomes say were done or wait, and those the golden reply uses. First
    person only, so a true earlier state ("your refund was issued on May 3") stays free; a
    denial ("I haven't cancelled it") is none. None where no verb is left."""
    from tb_env.domain.normalize import contains_fact
    from tb_env.domain.stance import Action, participle

    said = {c["name"] for c in calls}
    done = [o["outcome"]["action"] for o in assertions if "outcome" in o and o["outcome"]["stance"] in ("done", "pending")]
    # (a write's own name says its verb: "I've created arrangement PA-9001" reports create_payment_arrangement,
    # whatever other tool "create" is listed for)
    made = [*(v for t in said & set(claims) for v in (*claims[t], t.split("_")[0])), *done]
    skip = {w for v in made for u in (v, *_RELATED.get(v, ())) for w in Action(u).verbs}
    # (nor a verb the golden reply uses: the template reports a write no tool of `claims` made, "refunded" by a cancellation)
    verbs = [v for v in dict.fromkeys(v for vs in claims.values() for v in vs)
             if v not in skip and not (reply and contains_fact(reply, participle(v)))]
    wordings = [w.format(pp=participle(v), v=v) for v in verbs for w in _FIRST_PERSON]
    # a verb another write made free still may not report a new record of a write not made: "I've also created
    # a ticket" where only an arrangement was created (unless the noun is one a made write names: a ticket's note)
    named = {w for t in said for w in t.split("_")[1:]}
    for tool in sorted(set(claims) - said - {t for t in claims if t.startswith("_")}):
        noun = tool.split("_")[-1]
        # (a mass noun too: "I've also granted you access" where only a licence was assigned)
        if noun not in named and "_" in tool and (not noun.endswith("s") or noun.endswith("ss")):
            a = "an" if noun[0] in "aeiou" else "a"
            wordings += [w.format(pp=participle(v), v=v) + f" {art}{noun}" for v in claims[tool] if v in skip
                         for w in ("i have {pp}", "i have also {pp}", "i also {pp}", "i {pp}", "we have {pp}")
                         for art in (f"{a} ", "a new ", "another ", f"you {a} ",
                                     *(("you ", "") if noun.endswith("ss") else ()))]
    return says_not({"fact": wordings[0], "aliases": wordings[1:]}, why=why) if wordings else None


PROMISE_WHY = ("policy: never claim what a tool did not confirm: an outcome someone else decides (an approval, a "
               "claim or dispute decision, a payout) is not the agent's to promise")
# a promise of what someone else decides: "your claim will be approved and paid in full", "this dispute will
# definitely be decided in your favor" (not "I can't guarantee it will be approved": a promise denied is none;
# not "will be approved" alone, which "I'll tell you whether it will be approved" also says)
PROMISES = ("will definitely", "will certainly", "will surely", "will 100%", "guaranteed to", "i guarantee", "we guarantee",
            "i can guarantee", "i promise", "will be decided in your favor", "will be decided in your favour",
            "will go in your favor", "will go in your favour", "be resolved in your favor", "be resolved in your favour",
            "will win", "will be fully covered", "will be covered in full", "will be paid in full",
            "will be fully reimbursed", "will be reimbursed in full", "will be paid out in full", "most likely be approved",
            "likely be approved", "likely to be approved", "should be approved", "should get approved",
            "will be fast-tracked", "will be fast tracked", "will be waived automatically", "will automatically be waived")


def no_promises(reply: str | None = None, why: str = PROMISE_WHY) -> dict[str, Any] | None:
    """The agent must not promise what someone else decides (`must_not_state`), in any of
    `PROMISES` the golden reply does not use itself; a denied one ("I can't promise it will
    be approved") is none."""
    from tb_env.domain.normalize import contains_fact

    wordings = [w for w in PROMISES if not (reply and contains_fact(reply, w))]
    return says_not({"fact": wordings[0], "aliases": wordings[1:]}, why=why) if wordings else None


GROUNDED_WHY = "policy: never invent ids, amounts or dates: read them from the tools"


def grounded(why: str = GROUNDED_WHY, scope: Scope = "answer", derived: Sequence[float] = ()) -> dict[str, Any]:
    """Every money amount, count of days / nights / points and date the reply states came
    from the episode (a tool result, the customer, the policy) or one step of arithmetic on
    those, and no value the golden path replaced is said to be the new one. `Templates`
    adds it to every task; a template passes its own to change the `why` or scope, or to
    name the amounts its policy derives in more steps (`derived`: "under your limit by $113")."""
    body: dict[str, Any] = {"why": why}
    if scope != "answer":
        body["scope"] = scope
    if derived:
        body["derived"] = [round(float(v), 2) for v in derived]
    return {"grounded": body}


def outcome(
    action: str,
    stance: Literal["done", "refused", "pending", "not_done"],
    why: str,
    *,
    record: list[Any] | tuple[Any, ...] = (),
    others: list[Any] | tuple[Any, ...] = (),
    nouns: list[str] | tuple[str, ...] = (),
    already: list[Any] | tuple[Any, ...] = (),
    scope: Scope = "answer",
) -> dict[str, Any]:
    """How an action the customer asked for ended (`done`, `refused`, `pending`, `not_done`):
    the reply must not say otherwise ("couldn't refund" after a refund, "I've cancelled it"
    after a refused cancellation, "pending approval" after either), in any wording the shared
    vocabulary knows (`tb_env.domain.stance`). `record`: the names of the record it is about
    (its id first, for the probe); `others`: other records the reply may name, so a clause
    about them is not about this one, and the reply must not say the action was done to them
    ("your other card is unfrozen too") unless another outcome says so or they are `already`:
    records it had been done to before the episode (a leave approved last month)."""
    body: dict[str, Any] = {"action": action, "stance": stance, "why": why}
    if record:
        body["record"] = [str(r) for r in record]
    if others:
        body["others"] = [str(r) for r in others]
    if already:
        body["already"] = [str(r) for r in already]
    if nouns:
        body["nouns"] = list(nouns)
    if scope != "answer":
        body["scope"] = scope
    return {"outcome": body}


def outcomes(calls: list[dict[str, Any]], actions: dict[str, tuple[str, str | None]], why: str,
             others: list[Any] | tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """`done` outcomes derived from the golden calls: for each call of a tool in `actions`
    (tool name -> (verb, the argument naming its record, or None)), that action on that
    record was done. `others`: records the reply may also name."""
    out = []
    for c in calls:
        if c["name"] not in actions:
            continue
        verb, arg = actions[c["name"]]
        record = [c["arguments"][arg]] if arg and arg in c["arguments"] else []
        o = outcome(verb, "done", why, record=record, others=[x for x in others if x not in record])
        if o not in out:
            out.append(o)
    return out


def must_not_disclose(*values: Any, why: str, before: tuple[str, dict[str, Any]] | str | None = None) -> dict[str, Any]:
    """Values the caller may not be told; with `before` (a call, as `no_call`'s), only until its first
    success: the account's own details to a caller whose first verification failed."""
    body: dict[str, Any] = {"values": [str(v) for v in values], "why": why}
    if before is not None:
        bname, bargs = (before, {}) if isinstance(before, str) else before
        body["before"] = {"name": bname, "arguments": bargs}
    return {"must_not_disclose": body}


def no_call(
    name: str | None = None,
    *,
    why: str,
    before: tuple[str, dict[str, Any]] | str | None = None,
    mentions: list[Any] | tuple[Any, ...] = (),
    until_asked: list[str] | tuple[str, ...] = (),
    ask: str | None = None,
    **arguments: Any,
) -> dict[str, Any]:
    """No call of `name` (any tool if None) with these arguments and naming these values
    (`mentions`), or none before the first successful `before` call: for an order the
    policy imposes (verify before reading) or a record the caller may never see
    (`no_call(mentions=[namesake_id], why=...)`). `until_asked` (topic words): none before
    the agent asked the customer about it and heard the answer, for a choice the policy
    says to ask rather than guess (`no_call("resolve_address_exception", until_asked=["address"], why=...)`);
    the oracle and the probes ask it (`ask`: its wording, default "which <first topic>
    would you like?"), and a probe that guesses must score 0."""
    call: dict[str, Any] = {"name": name, "arguments": arguments} if name is not None else {"arguments": arguments}
    if mentions:
        call["mentions"] = [str(m) for m in mentions]
    body: dict[str, Any] = {"call": call, "why": why}
    if before is not None:
        bname, bargs = (before, {}) if isinstance(before, str) else before
        body["before"] = {"name": bname, "arguments": bargs}
    if until_asked:
        body["until_asked"] = list(until_asked)
    if ask is not None:
        body["ask"] = ask
    return {"no_call": body}


def called(name: str, *, why: str, before: tuple[str, dict[str, Any]] | str | None = None, **arguments: Any) -> dict[str, Any]:
    """A successful call of `name` with these arguments (before the first `before` call, where given): the read the
    policy requires before a decision (`called("check_sod_conflicts", why=..., employee_id=e, role_id=r)`), so a
    refusal or a booking that is right by luck, made without looking, scores 0."""
    body: dict[str, Any] = {"call": {"name": name, "arguments": arguments}, "why": why}
    if before is not None:
        bname, bargs = (before, {}) if isinstance(before, str) else before
        body["before"] = {"name": bname, "arguments": bargs}
    return {"called": body}


# -- wrong paths -----------------------------------------------------------------------------


def _wp(tag: str, note: str | None, **mutation: Any) -> dict[str, Any]:
    if tag not in WRONG_PATH_TAGS:
        raise ValueError(f"unknown wrong-path tag {tag!r}: use one of {', '.join(WRONG_PATH_TAGS)}")
    out: dict[str, Any] = {"tag": tag}
    if note:
        out["note"] = note
    out.update(mutation)
    return out


def drop(*idx: int, tag: str = "missing_step", note: str | None = None) -> dict[str, Any]:
    """The golden path without the calls at these indices."""
    return _wp(tag, note, drop=list(idx))


def append(*calls: dict[str, Any], tag: str = "extra_write", note: str | None = None) -> dict[str, Any]:
    """The golden path with these calls made after it."""
    return _wp(tag, note, append=list(calls))


def replace(mapping: dict[int, dict[str, Any]], tag: str, note: str | None = None) -> dict[str, Any]:
    """The golden path with the call at each index made differently."""
    return _wp(tag, note, replace=mapping)


def reply(text: str, note: str | None = None, tag: str = "wrong_reply") -> dict[str, Any]:
    """The golden calls with this final reply instead of the golden one."""
    return _wp(tag, note, reply=text)


# -- the spec ----------------------------------------------------------------------------------


@dataclass
class TaskSpec:
    """One task as a template returns it; the kit adds the id, the split and the tags."""

    caller: Caller
    patch: dict[str, list[dict[str, Any]]]
    golden: Golden | list[dict[str, Any]]
    reply: str | None
    assertions: list[dict[str, Any]]
    wrong: list[dict[str, Any]]
    kind: str = "task"
    difficulty: str = "medium"
    skills: list[str] = field(default_factory=list)
    tags: dict[str, Any] = field(default_factory=dict)
    rubrics: list[str] = field(default_factory=list)

    @property
    def calls(self) -> list[dict[str, Any]]:
        return self.golden.calls if isinstance(self.golden, Golden) else list(self.golden)
