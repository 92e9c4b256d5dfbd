"""The auto-insurance task templates: `python -m tb_env.tasks.auto_insurance.generate`
writes `tasks/<split>/<template>.yaml` (`--check`: are they current; `--validate`: run
`tb-env validate`'s contract and probes on them).

A template builds one scenario on an `InsuranceScene`:
1. the household the scenario is about (policyholder, policy, drivers, vehicles,
   coverages, invoices, claims, tickets), as the task's initial patch, with ids and
   names from the split's own pool (test: ids from 5001, train: from 7001; disjoint name
   lists), so no customer appears in both splits;
2. the golden calls, run one by one on a private copy of the database through the
   domain's real tools, so every id, amount and date in the golden reply is what a tool
   answered, not a second computation;
3. the caller (what they ask, and every fact they give when asked), the reply, the
   assertions and the wrong paths, in the kit's vocabulary (`tb_env.kit`).

How the reply is graded here (docs/adding-a-domain.md, "Writing tasks that grade right"):
a fact is required because the caller asked for it or policy.md demands it, and says
which; a refusal requires its reason; where wordings legitimately differ, a fact lists
them as aliases, and the golden reply then says exactly one of them (so the wrong-fact
probe, which spoils the first wording it finds, proves the check bites).

Every instance is seeded from `SEED`, the template, the split and the index (as before
the kit), so regenerating writes the same files and every task keeps its data.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import tb_env
from tb_env.backends.sqlite import SQLiteBackend
from tb_env.components.ticketing import CLAIMS as TICKET_CLAIMS
from tb_env.domain.database import SQLiteDatabase
from tb_env.domain.task import Task
from tb_env.errors import AgentError
from tb_env.kit import (
    Caller,
    Golden,
    Pool,
    Scene,
    TaskSpec,
    Templates,
    absent,
    append,
    call,
    called,
    drop,
    exists,
    fact,
    must_not_disclose,
    no_call,
    outcome,
    outcomes,
    replace,
    reply,
    says,
    says_not,
    still_owing,
    unchanged,
)

from . import seed as base
from . import tools as T

DOMAIN = "auto_insurance"
SEED = 7_2026_11_30
TODAY = date(2026, 11, 30)
ID_START = {"test": 5001, "train": 7001}

NAMES = {  # (first names, last names) per split: disjoint from each other and from the seed's
    "test": (
        ["Adrian", "Beatriz", "Cyrus", "Delphine", "Emeka", "Freya", "Gideon", "Hana", "Ivan", "Jolene",
         "Kofi", "Lucia", "Mateo", "Nadia", "Orson", "Paloma", "Rahul", "Selin", "Tobias", "Uma",
         "Viktor", "Wren", "Ximena", "Yosef", "Zara", "Anders", "Beatrice", "Callum", "Dmitri", "Esme"],
        ["Abernathy", "Bergstrom", "Cavanaugh", "Delacroix", "Eriksen", "Fairbanks", "Galloway", "Halvorsen",
         "Iwasaki", "Jablonski", "Kessler", "Lindqvist", "Montague", "Nakashima", "Oyelowo", "Pellegrino",
         "Quintana", "Rasmussen", "Sorensen", "Thibodeaux", "Underwood", "Valdivia", "Whitcombe", "Yamamoto",
         "Zielinski", "Ashworth", "Blackwood", "Castellano", "Drummond", "Esposito"],
    ),
    "train": (
        ["Amara", "Bastian", "Celeste", "Darius", "Eloise", "Fabian", "Gemma", "Hugo", "Ines", "Jasper",
         "Keira", "Leon", "Mira", "Nico", "Odette", "Pascal", "Rhea", "Silas", "Thea", "Ulric",
         "Vivian", "Wesley", "Yvonne", "Zane"],
        ["Albrecht", "Brennan", "Corrigan", "Dunmore", "Ellsworth", "Fitzgerald", "Gallagher", "Hartmann",
         "Ingram", "Jorgensen", "Kilbride", "Lachance", "Mortensen", "Novak", "Prescott", "Radcliffe",
         "Stanhope", "Tremblay", "Vasquez", "Wakefield", "Yardley", "Zeller", "Ashby", "Beaumont"],
    ),
}
PERSONAS = [
    "polite and precise", "in a hurry, answers in short sentences", "friendly and chatty",
    "a little anxious about costs", "calm and methodical", "direct and businesslike",
    "tired after a long day", "cheerful", "skeptical of insurance companies", "patient",
]
OCCUPATIONS = [
    "a nurse", "a retired teacher", "a software developer", "a small-business owner", "a graduate student",
    "an electrician", "a real-estate agent", "a restaurant manager", "a pharmacist", "a truck dispatcher",
    "a high-school coach", "a freelance designer",
]
LUXURY = [("BMW", "X7", "SUV", 96000), ("Porsche", "Cayenne", "SUV", 118000), ("Mercedes-Benz", "GLS 580", "SUV", 112000),
          ("Land Rover", "Range Rover", "SUV", 128000), ("Lexus", "LX 600", "SUV", 104000),
          ("Cadillac", "Escalade", "SUV", 99000)]
EXOTIC = [("Ferrari", "Roma", "coupe", 247000), ("Lamborghini", "Urus", "SUV", 238000),
          ("Rolls-Royce", "Cullinan", "SUV", 355000), ("McLaren", "Artura", "coupe", 241000)]
CLASSIC_OK = [("Toyota", "Land Cruiser", "SUV", 1998, 24000), ("Mazda", "MX-5 Miata", "convertible", 1997, 11000),
              ("Jeep", "Cherokee XJ", "SUV", 2000, 9500), ("Honda", "Prelude", "coupe", 1999, 12500),
              ("Chevrolet", "Corvette", "coupe", 1996, 21000)]
CLASSIC_OLD = [("Ford", "Mustang", "coupe", 1968, 48000), ("Chevrolet", "Camaro", "coupe", 1972, 41000),
               ("Volkswagen", "Beetle", "coupe", 1974, 16000), ("Toyota", "FJ40 Land Cruiser", "SUV", 1979, 52000)]
REPAIR_DAYS = [5, 7, 8, 9, 10, 12, 14, 16]
LENDER_CHOICES = ["Ally Financial", "Toyota Financial Services", "Chase Auto", "Capital One Auto",
                  "Honda Financial Services"]
COLLISIONS = [  # (what the caller says, the claim description)
    ("I was rear-ended at a red light", "Rear-ended at a red light"),
    ("I slid into a guardrail on an icy off-ramp", "Slid into a guardrail on ice"),
    ("someone ran a stop sign and hit my front bumper", "Other driver ran a stop sign and hit the front bumper"),
    ("I backed into a concrete pillar in a parking garage", "Backed into a pillar in a parking garage"),
    ("I hit a car that stopped short in traffic", "Hit a car that stopped short in traffic"),
]
REL_WORDS = {"child": "my kid", "spouse": "my spouse", "sibling": "my brother", "other_household": "my housemate"}

# Why a reply fact is required: the policy rule (policy.md) or the caller's question.
WHY_CHANGED = "policy (Communicating): after a change, tell the caller what changed"
WHY_PREMIUM = ("policy (Communicating): after a change, tell the caller the premium change or the prorated amount "
               "billed or credited")
WHY_COST = "the caller asked what the change costs or saves"
WHY_ADJUSTER = "policy (Claims, Adjusters): tell the caller the adjuster's name and phone number"
WHY_CLAIM_ID = "policy (Claims): tell the caller the claim id"
WHY_RENTAL = "policy (Claims, Rental cars): tell the caller the daily limit"
WHY_DECLINE = "policy (Communicating): when you decline a request, say why, citing the rule"
WHY_DECISION = "policy: if the underwriter denies it, tell the caller the decision and its reason"
WHY_UNVERIFIED = "policy (Identity verification): if the details do not match, reveal nothing about the account"
WHY_VERIFY_FIRST = "policy (Identity verification): nothing about the account before a verified identity"
WHY_NAMESAKE = ("policy (Identity verification): when several people share a name, only ever act on the verified "
                "policyholder's records; the namesake's are another person's, never read for this caller")
# Wordings of one decision or reason that a competent agent may use instead of each other.
DENIED = ("denied", "declined", "rejected", "turned down", "turned it down", "refused", "said no", "not approved",
          "answer was no", "answer is no", "answer was a no", "it's a no", "it was a no",
          "not approve", "not be approved", "cannot be approved", "can't be approved", "wasn't approved", "didn't approve",
          "couldn't approve", "unable to approve", "didn't get approved", "not get approved", "won't approve",
          "wouldn't approve", "can't approve", "cannot approve", "not granted", "wasn't granted", "didn't grant",
          "denial", "not accepted", "wasn't accepted", "won't accept", "wouldn't accept", "unable to accept", "a no",
          "answer is no", "decision is no", "won't cover", "wouldn't cover", "will not cover", "would not cover",
          "can't cover", "cannot cover", "unable to cover", "won't insure", "wouldn't insure", "can't insure",
          "cannot insure", "unable to insure")
# The decision told by what it means for the request ("so I can't add Sam"): a refusal's reason is a
# separate fact, so a bare refusal still fails.
CANT_ADD = ("can't add", "cannot add", "unable to add", "not able to add", "can't be added", "cannot be added",
            "won't be able to add", "couldn't add", "could not add", "not be added", "can't go on", "can't put")
CANT_RAISE = ("can't raise", "cannot raise", "unable to raise", "not able to raise", "can't increase", "cannot increase",
              "unable to increase", "can't be raised", "cannot be raised", "stay at", "remain at", "stays at",
              "remains at", "unchanged", "can't change", "cannot change", "can't upgrade", "cannot upgrade")
# A claim that is not closed yet (policy: drivers, vehicles and tickets wait for an open claim),
# as phrases about the claim: the bare words ("open", "closed", "pending") are said of tickets,
# invoices and policies too, and a refusal that names no claim gives no reason. `_OPEN` follows
# "the claim is" ("being handled", "under review", "with the adjuster", "not settled").
_OPEN = ("open", "active", "pending", "ongoing", "in progress", "being", "under", "with", "assigned", "currently", "still",
         "not")
_OPEN_ADJ = ("active", "pending", "ongoing", "unsettled", "unresolved", "outstanding")
_CLOSES = ("closes", "settles", "gets", "is closed", "is settled", "is resolved", "is finalized", "is finished",
           "has been closed", "has been settled", "has been resolved", "'s closed", "'s settled")


def claim_not_closed(claim_id: str, loss_type: str, *, bare: bool) -> tuple[str, ...]:
    """The policy's reason "the claim is still open", in the phrases a competent agent uses.

    Each phrase starts from the claim ("the claim is still being handled", "CLM-5017, which
    hasn't been settled", "an open claim", "until the claim is closed") and may stop there:
    facts match as phrases, so "the claim is still" says the claim is not closed, whatever
    follows. Unless `bare`, a pronoun or a relative clause alone ("which is still open",
    "until it's closed") is not enough, since a ticket can be the thing said to be open."""
    out: list[str] = []
    # (the claim told by what it is to the ticket or driver, its id in brackets or not: "the claim it
    # relates to (CLM-5020) is still open", "the claim linked to it is still being handled")
    linked = [f"claim {rel}{cid}" for rel in ("it relates to", "it's linked to", "it is linked to", "linked to it",
                                             "it belongs to", "it's tied to", "tied to it", "on it", "behind it")
              for cid in ("", f" ({claim_id.lower()})")]
    for subj, rels in (("claim", (", which is", " which is", " that is", " that's")),
                       (claim_id.lower(), (", which is", " which is")), *((s, ()) for s in linked)):
        out += [f"{subj} is {w}" for w in _OPEN] + [f"{subj} {c}" for c in _CLOSES]
        out += [f"{subj} {w}" for w in ("isn't", "hasn't", "has not", "remains", "still")]
        if not bare:
            out += [f"{subj}{r} {w}" for r in rels for w in _OPEN]
            out += [f"{subj}{r}" for r in (", which hasn't", " which hasn't", ", which has not", ", which isn't",
                                           " that hasn't", " that isn't")]
    out += [f"{det} open claim" for det in ("an", "the", "your", "on", "to", "with")] + [f"{a} claim" for a in _OPEN_ADJ]
    out += [f"{adj} {kind} claim" for adj in ("open", "active", "pending") for kind in dict.fromkeys(("accident", loss_type))]
    if bare:
        out += [f"{rel} {w}" for rel in ("which is", "that is", "that's") for w in _OPEN]
        out += ["which hasn't", "that hasn't", "which has not", "which isn't", "that isn't", "it's still", "it is still",
                "it hasn't been", "it has not been"]
        out += [f"is still {w}" for w in ("open", "pending", "active", "ongoing", "in progress", "being", "under", "with")]
        out += [f"{u} it{c}" for u in ("until", "once") for c in ("'s", " is", " has", " closes", " settles", " gets")]
        out += [f"when it{c}" for c in (" closes", " settles", "'s closed", "'s settled", " is closed", " is settled")]
        out += [f"{aux} {w}" for aux in ("hasn't been", "has not been", "isn't", "is not", "not yet", "hasn't yet been",
                                         "has yet to be") for w in ("closed", "settled", "resolved", "finalized")]
        out += ["hasn't closed", "hasn't settled", "has not closed", "has not settled", "still open", "still pending",
                "still active", "still ongoing", "still in progress", "still being"]
    return tuple(dict.fromkeys(out))


def ticket_waits_for_claim(claim_id: str) -> tuple[str, ...]:
    """A ticket that stays open as long as its claim ("it will be closed along with the claim")."""
    claims = [f"{d} claim" for d in ("the", "your", "that", "its")] + [claim_id.lower()]
    return tuple(f"{w} {c}" for w in ("along with", "together with", "closed with", "until", "once", "while",
                                      "as long as") for c in claims)


def closed_phrases(noun: str, record_id: str) -> tuple[str, ...]:
    """A record reported closed, said of the record ("ticket T-5019 is now closed", "I've
    closed T-5019"), not the bare word, which is also said of what stays open ("will be closed
    once ...") and of other records."""
    rid = record_id.lower()
    out = [f"{subj} {v}" for subj in (noun, rid) for v in ("is closed", "is now closed", "has been closed",
                                                             "has now been closed", "is marked closed",
                                                             "is marked as closed", "closed")]
    out += [f"closed {obj}" for obj in (f"the {noun}", f"your {noun}", f"that {noun}", f"this {noun}", rid,
                                        f"{noun} {rid}", "it", "out")]
    out += ["is now closed", "has been closed", "has now been closed", "is closed now", "now closed", "marked as closed",
            "marked closed", "marked it closed", "marked it as closed", "set to closed", "status to closed",
            "status is closed", "status is now closed", "status: closed", "status closed"]
    return tuple(dict.fromkeys(out))


def claim_not_denied(claim_id: str) -> dict[str, Any]:
    """A claim filed (and assigned) said to be denied: "your claim was denied", "we declined the
    claim". The outcome of filing it cannot forbid this without also reading the adjuster's later
    steps ("once she inspects the car") as the claim still waiting, so it is a phrase list."""
    verbs = ("denied", "declined", "rejected", "refused", "turned down")
    out = [f"{subj} {aux} {v}" for subj in ("claim", claim_id.lower()) for aux in ("was", "is", "has been", "got")
           for v in verbs]
    out += [f"{v} {det} claim" for v in verbs for det in ("your", "the", "this", "that")]
    return says_not(fact(out[0], "", *out[1:]),
                    why="the claim was filed and assigned: a reply saying it was denied says what did not happen")


def undecided_said() -> dict[str, Any]:
    """An underwriter's decision said to be still open ("your request is pending", "under review"),
    where the underwriter has decided: in words the outcome of the change cannot bind to it, since
    they name the request, not the change ("it's with underwriting")."""
    return says_not(fact("pending", "", "awaiting", "under review", "in review", "on hold", "waiting for", "waiting on",
                         "waiting to hear", "not decided", "not yet decided", "yet to decide", "still deciding",
                         "still reviewing", *UNDECIDED_CONDITIONS),
                    why="the underwriter has decided: a reply saying the request still waits says what did not happen")


# The decision said to come, in the present tense ("once the underwriter approves", "if approved"): a
# narration of the decision is past ("once the underwriter approved it, I raised ..."), so not these.
UNDECIDED_CONDITIONS = (
    *(f"{w} approved" for w in ("once", "if", "when", "until", "once it is", "once it's", "if it is", "if it's",
                                "when it is", "when it's", "once they are", "once they're", "if they are")),
    *(f"{w} {who} {v}" for w in ("once", "if", "when", "after", "as soon as", "until")
      for who in ("the underwriter", "an underwriter", "underwriting", "our underwriting team", "our underwriter",
                  "the underwriting team", "our team")
      for v in ("approves", "reviews", "signs off", "gives", "decides", "okays", "confirms")),
    *(f"{w} the review is" for w in ("once", "when", "after", "until", "as soon as")),
    "final ok", "final okay", "is with underwriting", "is with the underwriter",
    "is with our underwriting", "are with underwriting", "sits with underwriting",
)


LOSS_DATE = ("loss date", "date of loss", "accident date", "date of the accident")


def model_forms(model: str) -> tuple[str, ...]:
    """A vehicle model in every way people write it: "F-150" / "F150" / "F 150", "CR-V" / "CRV",
    "Mazda3" / "Mazda 3", "RX 350" / "RX350" (the normaliser keeps "F-150" and "F 150" apart).
    Where letters meet digits or a hyphen joins two parts, the parts may be joined, spaced or
    hyphenated; other spaces stay."""
    parts = re.findall(r"[A-Za-z]+|\d+|[ -]", model)
    gaps: list[tuple[str, ...]] = []
    words: list[str] = []
    for tok in parts:
        if tok in " -":
            gaps.append(("hy" if tok == "-" else "sp",))
            continue
        if words and len(gaps) < len(words):  # letters glued to digits ("Mazda3", "FJ40")
            gaps.append(("glued",))
        words.append(tok)
    out: list[str] = []
    for combo in itertools.product(*(("", " ", "-") if g[0] != "sp" or (words[i].isalpha() and words[i + 1].isdigit())
                                     else (" ",) for i, g in enumerate(gaps))):
        out.append(words[0] + "".join(sep + w for sep, w in zip(combo, words[1:], strict=True)))
    return tuple(dict.fromkeys([model, *out]))


def account_reads(h: Household) -> list[tuple[str, dict[str, str]]]:
    """Every read of a household's records (its profile, policy, billing, claims, tickets):
    what policy.md keeps from anyone but its verified policyholder."""
    return [("get_policyholder", {"policyholder_id": h.id}), ("list_tickets", {"policyholder_id": h.id}),
            *((tool, {"policy_id": h.pol}) for tool in ("get_policy", "get_billing_account", "list_invoices",
                                                       "list_claims", "list_endorsements"))]




# The policy's reason for refusing a third billing extension: at most 2 per policy in any 12
# months. "limit", "maximum" and "max" alone also say the other extension rule (14 days at most).
EXTENSIONS_USED = (
    "2 billing extension", "2 extension", "both extension", "both of its extension", "both of your extension",
    "both of the extension", "both allowed extension", "both available extension", "twice", "2 time",
    "no more extension", "no further extension", "any more extension", "any further extension",
    "extension limit", "extension cap", "limit on extension", "limit on billing extension", "limit of 2",
    "limit for extension", "limit on how many extension", "cap on extension", "cap on billing extension", "cap of 2",
    "maximum of 2", "max of 2", "maximum number of extension", "max number of extension", "maximum number of billing",
    "annual limit", "annual cap", "annual maximum", "yearly limit", "yearly cap", "yearly maximum", "used up",
    "used both", "used all", "already had 2", "already used 2", "already granted 2", "already received 2",
    "already been granted 2", "12 month", "per year", "each year", "every year", "in a year", "in 1 year",
    "within a year", "within 1 year", "in any year", "this year", "past year", "last year", "policy year",
)
# Refusal reasons are statements, not the bare words of a question the agent may ask first
# ("are you the policyholder?", "can you verify your zip?"): the answer after the last tool call
# includes such questions.
NOT_VERIFIED = ("do not match", "doesn't match", "does not match", "didn't match", "did not match", "couldn't verify",
                "could not verify", "can't verify", "cannot verify", "unable to verify", "not able to verify",
                "verification failed", "failed verification", "not verified", "couldn't be verified",
                "could not be verified", "can't be verified", "cannot be verified", "couldn't confirm your identity",
                "could not confirm your identity", "unable to confirm your identity", "aren't the ones", "are not the ones",
                "isn't the one", "is not the one", "not what we have", "isn't what we have", "aren't what we have",
                "don't line up", "doesn't line up", "didn't line up", "don't agree with", "doesn't agree with",
                "don't correspond", "doesn't correspond", "verification was unsuccessful", "verification unsuccessful",
                "verification wasn't successful", "verification was not successful", "unsuccessful verification",
                *(f"{could} confirm {you}" for could in ("couldn't", "could not", "wasn't able to", "was not able to",
                                                         "unable to", "not able to")
                  for you in ("you're", "you are", "that you're", "that you are", "you as", "it's you", "who you are")))
ONLY_HOLDER = ("only the policy holder", "with the policyholder", "only with the policyholder", "only the named insured", "only the account holder", "only the primary insured",
               "only policyholders", "not the policyholder", "not the named insured", "not the account holder",
               "by the policyholder", "from the policyholder", "policyholder themselves", "policyholder himself",
               "policyholder herself", "named insured can", "named insured has to", "named insured needs",
               "named insured must", "the named insured", "policyholder can", "policyholder has to", "policyholder needs",
               "policyholder must", "policyholder would need", "policyholder will need", "policyholder to call",
               "policyholder to contact", "policyholder directly", "request of the policyholder",
               "account holder can", "account holder has to", "account holder needs", "account holder must")
NOT_COVERED = ("not covered", "isn't covered", "no coverage", "doesn't cover", "does not cover", "don't cover",
               "do not cover", "won't cover", "wouldn't cover", "cannot cover", "can't cover")
NOT_INSURED = ("don't insure", "do not insure", "doesn't insure", "can't insure", "cannot insure", "won't insure",
               "not insurable", "excluded", "exclusion", "commercial", "personal auto", "personal policy",
               "personal policies", "personal insurance", "not permitted", "isn't permitted", "not allowed",
               "isn't allowed", "not eligible", "isn't eligible", "ineligible")
UNVERIFIED_NOTE = "acts on the account without verifying the caller's identity"
# Status words, bound to their record by `near` (a negation right before them cancels them).
STATUS_CLOSED = ("close", "closing", "closed out", "shut")
STATUS_WITHDRAWN = ("withdrew", "withdraw", "withdrawing", "cancelled", "canceled", "cancel", "cancelling", "canceling",
                    "closed", "close", "closing", "retracted")
# The underwriter's reason for a vehicle it denies, as the decision note says it: outside what a
# personal auto policy can insure.
VEHICLE_OUTSIDE = ("what a personal auto policy can", "personal auto policy can't", "personal auto policy cannot",
                   "personal auto policies can't", "personal auto policies cannot", "outside what a personal",
                   "outside what we can", "beyond what a personal", "beyond what we can", "more than a personal auto",
                   "standard personal auto")
# What the adjuster does with a correction the agent may not make once the claim is assigned.
ADJUSTER_REVIEWS = ("reviews", "reviewed", "reviewing", "look at", "looks at", "look into", "looks into", "take a look",
                    "follow up", "get back to you", "decide", "consider", "handle", "make the change",
                    "make the correction", "correct it", "correct the", "update it", "update the loss", "change it",
                    "change the loss", "passed", "pass", "forwarded", "forward", "sent", "send", "noted", "note",
                    "flagged", "flag", "let", "notify", "notified", "inform", "informed", "alert", "alerted", "see",
                    "verify", "confirm", "assess", "evaluate", "approve", "process", "in touch", "reach out", "contact",
                    "call you", "get back", "escalated", "escalate", "routed", "route", "handed", "hand", "referred", "refer",
                    "submitted", "submit", "logged", "log", "recorded", "opened", "created", "filed", "raised",
                    "added", "requested", "asked", "ask", "told", "fix", "amend")
# The use a personal auto policy excludes, or the personal-policy limit itself.
PAID_USE = ("ridesharing", "ride share", "ride sharing", "ride hail", "ride hailing", "delivery", "deliveries",
            "delivering", "deliver", "paid transport", "paid driving", "for pay", "for hire", "commercial", "business use",
            "livery", "gig", "personal auto", "personal use", "personal policy", "personal policies",
            "personal insurance", "outside what we can")
# Claims a refusal's reply must not make (`says_not`): that the refused change was made. Perfect or passive
# forms ("has been added", "I've added"), not the bare verb, which also states the rule ("can only be added
# with approval"); a negation before them ("hasn't been added") is no claim. A driver or car said added in
# any form of "add" is the `add` outcome's (`refused`); these are the claims without the verb.
ON_POLICY_CLAIM = ("is now on your policy", "is now on the policy", "is on your policy now", "is on the policy now",
                   "is now covered", "is now insured", "now listed", "is now a driver", "is now listed",
                   *(f"put {who} on {det} policy" for who in ("it", "him", "her", "them", "the car", "the vehicle")
                     for det in ("your", "the")))
# Other things an agent may add beside a refused driver or car ("I've added a note"): truly said added
ADD_ASIDES = ("note", "ticket", "comment", "memo")
REMOVED_CLAIM = ("has been removed", "have removed", "is removed", "is now removed", "was removed", "i removed",
                 "is off your policy", "is off the policy", "is now off", "has been taken off", "have taken",
                 "took it off", "taken it off", "has been dropped", "have dropped", "is dropped", "is now dropped",
                 "dropped comprehensive", "removed comprehensive", "has been cancelled", "have cancelled")
# more words a removal is told in ("the Outback comes off your policy", "both are removed")
OFF_CLAIM = ("are removed", "are now removed", "have been removed", "were removed", "comes off", "come off",
             "coming off", "will come off", "taken off", "took off", "is off", "are off", "off your policy",
             "off the policy", "removing", "will be removed")


def not_removed(kept: list[Any], removed: list[Any], why: str) -> dict[str, Any]:
    """The records that stay (`kept`: their names; "both" where two share a name) never said removed
    or taken off, in any wording; the nearest name to the claim decides whose it is, so the record
    that was removed (`removed`: its names) may be said removed beside them."""
    return says_not(fact("has been removed", "", *REMOVED_CLAIM, *OFF_CLAIM, owner=[str(k) for k in kept],
                         rivals=[str(r) for r in removed]), why=why)


RAISED_CLAIM = ("has been raised", "have been raised", "have raised", "i raised", "is raised", "are raised",
                "is now raised", "are now raised", "has been increased", "have been increased", "have increased",
                "i increased", "has been upgraded", "have been upgraded", "have upgraded", "has been changed",
                "have been changed", "have changed", "has been updated", "have been updated", "have updated")


def _month(iso_date: str) -> str:
    """The month of a date, as a reply names it ("September")."""
    return date.fromisoformat(iso_date).strftime("%B")


def iso(d: date) -> str:
    return d.isoformat()


def day(offset: int) -> str:
    """The ISO date `offset` days from today (negative: in the past)."""
    return iso(TODAY + timedelta(days=offset))


def spoken(iso_date: str) -> str:
    """A date the way a caller says it: "December 5, 2026"."""
    d = date.fromisoformat(iso_date)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def when(iso_date: str) -> str:
    """An effective date in a caller's words: "today", or the spoken date."""
    return "today" if iso_date == day(0) else spoken(iso_date)


def dollars(x: float) -> str:
    return f"${abs(T.money(x)):,.2f}"


def new_premium_said(new: float, old: float) -> tuple[str, ...]:
    """The annual premium after a change, in phrases that say it is the new premium ("is now
    $2,397.50", "from $1,900.00 to $2,397.50"), so it cannot pass as the change itself ("goes up
    $2,397.50"). A phrase with a direction ("rises to", "drops to") only in the direction it moved."""
    n = dollars(new)
    moved = (("up to", "rises to", "increases to", "goes up to", "climbs to") if new >= old else
             ("down to", "decreases to", "drops to", "falls to", "goes down to", "reduced to", "lowered to"))
    return (f"{dollars(old)} to {n}", *(f"{w} {n}" for w in (
        "premium is", "premium is now", "premium will be", "premium will now be", "premium becomes", "premium of",
        "premium:", "premium now", "premium comes to", "premium to", "now", "now be", *moved, "goes to", "comes to",
        "total of", "total is", "total annual premium is", "total annual premium of", "new premium",
        "new annual premium", "new premium is", "new annual premium is", "new total")))


# How a premium change is told (policy: "the annual premium change and the prorated amount billed or
# credited"): the annual change said as a yearly amount, in its direction; the prorated amount said as
# billed or credited for the rest of the term, in its direction. Cues match at a word's start
# ("prorat" is "prorated" and "proration"); "a day" / "a month" are an option's rate or a monthly split.
YEARLY = ("year", "annual", "yearly", "premium", "12 month")
PER_YEAR = ("a year", "per year", "/year", "each year", "every year", "yearly", "annual", "annually", "12 month",
            "year over year")
PER_OTHER = ("a day", "per day", "/day", "each day", "every day", "daily", "a month", "per month", "/month",
             "each month", "every month", "monthly")
PRORATED = ("prorat", "pro rata", "pro rated", "pro-rat", "rest of", "remainder", "remaining", "this term",
            "current term", "this policy term", "invoice", "next instalment", "next installment", "next payment",
            "next bill", "today", "one time")
BILLED = ("charge", "bill", "owe")
CREDITED = ("credit", "refund", "back", "deducted")
UP = ("up by", "goes up", "go up", "going up", "gone up", "went up", "rise", "rising", "rose", "increase",
      "raise", "higher", "more", "extra", "additional", "add", "cost", "plus", "+")
DOWN = ("down", "decrease", "lower", "less", "save", "saving", "drop", "reduc", "cut", "cheaper", "off", "fall",
        "fell", "knock")
UP_RIVALS = ("up by", "goes up", "go up", "going up", "gone up", "went up", "rise", "rising", "rose", "increase",
             "raise", "higher", "more", "extra")
DOWN_RIVALS = ("down", "decrease", "lower", "less", "save", "saving", "drop", "reduc", "cut", "cheaper", "fall", "fell")
NEUTRAL = ("change", "difference", "impact", "effect")
# the two changes of one reply, told apart by what changed ("rental car" is rental, not the car)
RENTAL_WORDS = ("rental", "reimbursement")
VEHICLE_WORDS = ("vehicle", "replace", "swap", "trade", "new car", "the car", "your car", "this car", "that car")
# a payment made now, not the late fee in it nor the next instalment
PAID_OWN = ("charg", "paid", "payment of", "pay", "took", "processed", "collected", "debited", "billed", "overdue",
            "past due", "total", "in full")
PAID_RIVALS = ("late fee", "fee of", "waive", "next", "upcoming", "following", "remaining", "left")
# what is overdue now, not the next instalment nor the late fee in it: "late" and "total" only in phrases
# that are not the fee's own ("a late charge of", "a late fee totaling")
OVERDUE_OWN = ("owe", "overdue", "past due", "late payment", "late on", "late by", "paying late", "behind", "outstanding",
               "missed", "right now", "includ", "total due", "total owed", "total overdue", "total past due",
               "total amount", "total balance", "in total", "total is", "total of", "unpaid", "balance")
NEXT_DUE = ("next", "upcoming", "following", "future", "late fee", "fee of", "late charge", "penalty", "fee total",
            "fee amount")
# one instalment of an arrangement, not the balance it splits
INSTALMENT_OWN = ("first", "each", "instalment", "installment", "payment of", "per payment", "a month", "monthly",
                  "every", "equal")
INSTALMENT_RIVALS = ("overdue", "total", "owe", "balance", "late fee", "fee of", "split", "altogether", "in all")
# next term's premium, not this term's
RENEWAL_OWN = ("renew", "next term", "next year", "new term", "offer", "will cost", "going to cost", "will be",
               "coming term", "upcoming term", "next policy")
# ("currently" is left out: "the renewal is $2,712.84 (currently $2,608.50)" names the other value after it)
RENEWAL_RIVALS = ("current premium", "currently pay", "right now", "this year", "this term", "today", "deductible",
                  "now pay", "paying now", "pay now")
# a rental's daily limit, not the claim's deductible
DAILY_OWN = ("a day", "per day", "/day", "each day", "daily", "rental", "a night", "day limit")
DAILY_RIVALS = ("deductible",)
# a new deductible, not the premium it saves
DEDUCTIBLE_OWN = ("deductible", "raise", "raising", "higher deductible")
DEDUCTIBLE_RIVALS = ("save", "saving", "premium", "a year", "per year", "/year", "annual", "credit", "refund", "lower",
                     "less", "drop", "cut", "off", "invoice", "cost")


# A value of the scene said in the written role where the write put another: the old value said as the new one
# ("your phone number is now 512-555-2144"), the option not chosen said as the one set. The value counts as said in
# that role where the nearest role word is one of `NEW_ROLE`; said as what it was, or set against the new one
# ("from $500 to $1,000", "the 18th instead of the 28th"), it is free.
NEW_ROLE = ("now", "new", "updated to", "changed to", "set to", "set at", "raised to", "increased to", "moved to",
            "pushed to", "extended to", "corrected to", "fixed to", "will be", "is set", "going forward", "from now on",
            "switched to", "effective")
OLD_ROLE = ("old", "previous", "prior", "was", "were", "from", "instead of", "rather than", "not", "no longer",
            "used to", "original", "before", "replac", "still", "stays", "remain", "on file", "current", "earlier",
            "limit", "maximum", "max", "at most", "up to", "latest", "allowed", "rule")


# a contact detail said as the one now on file ("I've changed your number to ...")
CONTACT_NEW = (*NEW_ROLE, "number to", "phone to", "email to", "address to", "reach you at", "contact you at")


def rental_claim_roles(claim: dict[str, Any] | None, rental: dict[str, Any]) -> list[dict[str, Any]]:
    """A claim filed with a rental: another deductible option said as this claim's (`claim`: when the reply
    may state it), or a figure of the rental the tools never gave: another number of days said as the days
    authorised (the 30-day maximum, one off the shop's estimate), another amount said as the daily limit (another
    option, the total), another total said as what the rental is reimbursed in all."""
    days, daily, total = rental["rental_days_authorized"], rental["daily_limit"], rental["max_reimbursement"]
    out = []
    if claim is not None:
        out += said_as_new(*(f"${d:,}" for d in (250, 500, 1000, 2000) if d != claim["deductible"]),
                           new=("deductible", "you pay", "you'll pay", "out of pocket"),
                           old=("comprehensive", "collision coverage", "not", "instead of", "maximum", "at most",
                                "up to", "lienholder", "liability"),
                           why="the claim's deductible is the one on file: another option said as it is the wrong value")
    wrong_days = [d for d in range(1, 46) if d != days]
    out.append(says_not(
        fact(f"{wrong_days[0]} day", "", *(f"{d} {w}" for d in wrong_days for w in ("day", "rental day", "day rental",
                                                                                     "day of rental", "days of rental")),
             owner=["authoriz", "authoris", "approved", "approve", "rental", "for", "covered", "cover", "booked",
                    "reimburs", "car", "days:"],
             # (a bound before the count, not "up to" after it, which is the daily limit's: "30 days at up to $40")
             rivals=["maximum", "max", "at most", "limit", "per claim", "cap", "allow", "for up to", "of up to",
                     "covers up to", "cover up to", "covered up to", "is up to", "shop", "repair",
                     "ago", "estimat", "within", "business", "policy", "each claim", "a claim"]),
        why="the caller asked for the days the shop estimated: another number of days said as the days authorised "
            "(the 30-day maximum, a day off) is a figure the tools never gave"))
    # (the day count is left out: a money fact also matches the bare count of a "Days: 10" line)
    out.append(misstated([daily, days], [total, 30, 40, 50, *((claim or {}).get("deductible") or 0,)],
                         owner=DAILY_OWN, rivals=(*DAILY_RIVALS, "total", "in all", "altogether", "overall",
                                                  "maximum reimbursement", "max reimbursement", "combined",
                                                  # the total worked out after it: "$40 a day for 16 days, so up to $640"
                                                  "so up to", "so a maximum of", "comes to", "come to", "adds up to",
                                                  "which is up to"),
                         why="the rental's daily limit is the policy's: another amount said as it is the wrong value"))
    out.append(misstated(total, [daily * 30, *(o * days for o in (30, 40, 50)), daily * (days + 1),
                                 daily * max(days - 1, 1)],
                         owner=("total", "in all", "altogether", "overall", "maximum reimbursement",
                                "max reimbursement", "reimbursement of up to", "combined", "up to a total"),
                         rivals=(*DAILY_OWN, "per claim", "deductible", "premium", "a year"),
                         why="the rental's total is its days at the daily limit: another total is made up"))
    return out


def days_fact(days: int, why: str) -> dict[str, Any]:
    """A number of rental days, said as days ("7 days", "seven rental days", "a 7-day rental") or as the value of
    a "Days" label or line ("Days: 7")."""
    weeks = {7: ("a week", "1 week", "one week"), 14: ("2 weeks", "two weeks")}.get(days, ())
    return fact(f"{days} day", why, f"{days} rental day", f"{days} day rental", *weeks,
                alternatives=[fact(str(days), why, near=["day", "rental day"])])


def near_misses(right: Any, pool: Any = (), *, extra: Any = ()) -> list[float]:
    """Amounts a sloppy agent says in place of the `right` ones: each value of `pool` (the other amounts of the
    scene), one step of arithmetic on two of them (a fee added twice or left out, a sum, a difference), twelve times
    or a twelfth of one (a month said as a year), and round figures near each right one ($1,200 for $1,060); none of
    the `right` ones."""
    rights = {T.money(abs(float(v))) for v in ([right] if isinstance(right, (int, float)) else right)}
    vals = sorted({T.money(abs(float(v))) for v in [*rights, *pool] if v})
    out: set[float] = {T.money(abs(float(v))) for v in extra}
    for a in vals:
        out.update((a, T.money(a * 12), T.money(a / 12), T.money(a * 2)))
        for b in vals:
            out.update((T.money(a + b), T.money(abs(a - b))))
    for r in rights:
        for step in (10, 100, 1000):
            base_ = round(r / step) * step
            out.update(float(base_ + k * step) for k in (-2, -1, 0, 1, 2))
    return sorted(v for v in out if v > 0 and all(abs(v - r) > 0.004 for r in rights))


def misstated(right: Any, pool: Any = (), *, owner: tuple[str, ...], rivals: tuple[str, ...], why: str,
              extra: Any = ()) -> dict[str, Any]:
    """`says_not` an amount of `near_misses` said in the role of the `right` one (the nearest role word is
    one of `owner`, not of `rivals`): "your overdue balance is $215.65" where it is $200.65."""
    wrong = [dollars(v) for v in near_misses(right, pool, extra=extra)]
    return says_not(fact(wrong[0], "", *wrong[1:], owner=list(owner), rivals=list(rivals)), why=why)


def said_as_new(*values: Any, why: str, new: tuple[str, ...] = NEW_ROLE, old: tuple[str, ...] = OLD_ROLE,
                near: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """`says_not` each value of the scene said in the role the write gave another value (`near`: the
    words of that role, where the value alone could be another role's: "$500" a deductible or a fee)."""
    out = []
    for v in dict.fromkeys(str(v) for v in values):
        f = fact(v, "", owner=list(new), rivals=list(old))
        out.append(says_not({**f, "near": list(near)} if near else f, why=why))
    return out


def premium_change(annual: float, prorated: float, old: float, new: float, why: str, *,
                   subject: tuple[str, ...] = (), others: tuple[str, ...] = (), rivals: tuple[str, ...] = (),
                   directions: bool = True) -> dict[str, Any]:
    """A premium change told any way policy.md allows, each in its own role (`alternatives`):
    - the annual change, said as yearly ("a year", "annual premium") in its direction ("up",
      "adds" / "down", "saves"): said the other way, or "a month", or as the prorated charge, it fails;
    - the prorated amount, said as billed (up) or credited (down) for the rest of the term, not
      "a year", and not in the other direction ("refund" for a charge);
    - the new annual premium said as the new premium (`new_premium_said`).
    `subject`: the words of the thing that changed, where the reply tells two changes (`others`:
    the other's words); then only a strong direction word stands in for the subject. `rivals`:
    other values' roles the reply may tell beside it (the new deductible)."""
    up = annual >= 0
    own_dir = ((UP if up else DOWN) + NEUTRAL) if directions else (UP_RIVALS if up else DOWN_RIVALS)
    # a "+" is the direction of an increase said as "+$55/yr", but no subject of a change (the nearest "+" beside
    # the rental's cost is not the car's): a rival of a decrease, an owner only where directions stand in
    wrong_dir = DOWN_RIVALS if up else (*UP_RIVALS, "+")
    # with directions checked on their own (`premium_checks`), "for $890 a year" names the yearly change by its
    # period alone (not "annual" or "yearly": "your annual premium is $790" tells the change as the premium)
    per_year = tuple(w for w in PER_YEAR if w not in ("annual", "yearly")) if directions else ()
    yearly = fact(abs(annual), why, near=YEARLY, owner=[*subject, *own_dir, *per_year],
                  rivals=[*others, *wrong_dir, *PER_OTHER, *PRORATED, *BILLED, *CREDITED, *rivals])
    bill, unbill = (BILLED, CREDITED) if prorated >= 0 else (CREDITED, BILLED)
    part = fact(abs(prorated), why, near=[*PRORATED, *bill], owner=[*subject, *PRORATED, *bill],
                rivals=[*others, *PER_YEAR, *PER_OTHER, *unbill, *wrong_dir, *rivals])
    total = fact(new_premium_said(new, old)[0], why, *new_premium_said(new, old)[1:])
    alts = [part, total]
    if not up:  # "premium -$1,367.50/yr", "change: -$1,367.50": the minus sign is its direction
        alts.append(fact(f"-{dollars(annual)}", why, f"-{abs(T.money(annual)):,.2f}", near=YEARLY,
                         owner=[*subject, *DOWN, *NEUTRAL, "annual", "year"],
                         rivals=[*others, *UP_RIVALS, *PER_OTHER, *PRORATED, *BILLED, *CREDITED, *rivals]))
    return {**yearly, "alternatives": alts}


def premium_fact(res: dict[str, Any], why: str, final: tuple[float, float] | None = None, **kw: Any) -> dict[str, Any]:
    """A change's cost (`premium_change`) from a premium-changing tool's result (`final`: the
    premium before and after all of several changes, whatever their order)."""
    old, new = final or (T.money(res["new_annual_premium"] - res["annual_premium_change"]), res["new_annual_premium"])
    return premium_change(res["annual_premium_change"], res["prorated_change"], old, new, why, **kw)


def premium_checks(res: dict[str, Any], why: str, final: tuple[float, float] | None = None, *, also: tuple[Any, ...] = (),
                   **kw: Any) -> list[dict[str, Any]]:
    """The premium change told (`premium_fact`, with `also` the other facts of the same reply), and not
    told in the other direction: "goes down by $790 a year" for a rise fails however it names its period."""
    return [says(premium_fact(res, why, final, **kw), *also, scope="any"),
            wrong_direction(res["annual_premium_change"], why)]


def wrong_direction(annual: float, why: str) -> dict[str, Any]:
    """The annual change whose nearest direction word is the other one ("goes up by $790" for a drop; not
    "raised the deductible to $1,000, which saves you $80": "saves" is nearer)."""
    up = annual >= 0
    minus = [fact(f"-{dollars(annual)}", "")] if up else []  # "premium: -$3,460.00/yr" for a rise
    return says_not(fact(dollars(annual), "", owner=list(DOWN_RIVALS if up else (*UP_RIVALS, "+")),
                         rivals=list((UP if up else DOWN) + NEUTRAL)), *minus,
                    why=f"{why} (in the direction it moved)", scope="any")


def reason(wording: str, why: str, *aliases: str) -> dict[str, Any]:
    """A refusal's reason or a status: `fact` with the phrase lists above (each wording once)."""
    return fact(wording, why, *(a for a in dict.fromkeys(aliases) if a != wording))


# -- outcomes: how each action the caller asked for ended -------------------------------------------
# The golden writes a caller asks for, as the verb a reply tells them with and the argument that names
# the record (`tb_env.kit.outcomes`): a reply must not say one of them failed or is still waiting.
ACTIONS: dict[str, tuple[str, str | None]] = {
    "update_contact_info": ("update", "policyholder_id"), "set_autopay": ("set", "policy_id"),
    "change_coverage": ("raise", "coverage_type"), "add_coverage": ("add", "coverage_type"),
    "grant_billing_extension": ("extend", "invoice_id"), "make_payment": ("pay", "invoice_id"),
    "waive_late_fee": ("waive", "invoice_id"), "create_payment_arrangement": ("split", "policy_id"),
    "withdraw_claim": ("withdraw", "claim_id"), "update_claim": ("correct", "claim_id"), "file_claim": ("file", None),
    "assign_adjuster": ("assign", "claim_id"), "authorize_rental": ("authorize", "claim_id"),
    "add_driver": ("add", "license_number"), "remove_driver": ("remove", "driver_id"), "add_vehicle": ("add", "vin"),
    "replace_vehicle": ("replace", "vehicle_id"), "remove_vehicle": ("remove", "vehicle_id"),
    "update_ticket_status": ("close", "ticket_id"), "escalate_ticket": ("escalate", "ticket_id"),
}
# an action's nouns the shared vocabulary does not derive from its verb
ACTION_NOUNS = {"pay": ("payment",), "authorize": ("authorization",), "withdraw": ("withdrawal",),
                "split": ("arrangement", "payment arrangement"), "correct": ("correction",), "set": ("setup",)}
WHY_DONE = "the caller asked for it and it was done: the reply must not say it failed or is still waiting"
WHY_REFUSED = "policy refuses it: the reply must not say it was done, or that it waits on someone"
WHY_HANDED_ON = "it is not done here but left to someone else: the reply must not say it was done"


def asked_done(s: InsuranceScene, *, tools: tuple[str, ...] | None = None, verbs: dict[str, str] | None = None,
         names: dict[str, list[Any]] | None = None, others: dict[str, list[Any]] | None = None,
         nouns: dict[str, tuple[str, ...]] | None = None) -> list[dict[str, Any]]:
    """`done` outcomes of the golden writes in `ACTIONS` (`tools`: only these; `verbs`: the verb a
    tool's action is told with here). Each is about its record, the call's argument (or, for a call
    without one, its verb), then `names[key]`: the words a reply names it by; `others[key]`: the other
    records the reply may name beside it (only where it does: a clause naming neither then counts
    for neither); `nouns[key]`: more nouns of the action here."""
    acts = {t: ((verbs or {}).get(t, v), arg) for t, (v, arg) in ACTIONS.items() if tools is None or t in tools}
    out = []
    for o in outcomes(s.golden.calls, acts, WHY_DONE):
        body = o["outcome"]
        key = body["record"][0] if body.get("record") else body["action"]
        record = [*body.get("record", []), *map(str, (names or {}).get(key, ()))]
        out.append(outcome(body["action"], "done", WHY_DONE, record=list(dict.fromkeys(record)),
                           others=(others or {}).get(key, ()),
                           nouns=(*ACTION_NOUNS.get(body["action"], ()), *(nouns or {}).get(key, ()))))
    return out


def refused(verb: str, *record: Any, others: tuple[Any, ...] | list[Any] = (), handed_on: bool = False,
            nouns: tuple[str, ...] = (), already: tuple[Any, ...] | list[Any] = ()) -> dict[str, Any]:
    """The outcome of an action policy refuses (`handed_on`: refused here but left to someone else,
    the adjuster, the policyholder, a team, so "waiting" is true and only "done" is false); `already`:
    names among the `others` of records it was done to before the call (the fee waived last time)."""
    return outcome(verb, "not_done" if handed_on else "refused", WHY_HANDED_ON if handed_on else WHY_REFUSED,
                   record=record, others=others, nouns=(*ACTION_NOUNS.get(verb, ()), *nouns), already=already)


WHY_ASKED_ONLY = "the caller only asked a question and nothing was changed: a reply must not say it was"


def nothing_done(*verbs: str, record: tuple[Any, ...] = (), others: tuple[Any, ...] = (),
                 already: tuple[Any, ...] | None = None) -> list[dict[str, Any]]:
    """`not_done` outcomes of the writes a caller who only asked could think happened ("I've waived
    the late fee", "I've set up autopay"). `record`: what the verb is bound to where it also names a
    true state (a payment "set for December 5", a premium "increased" at renewal); `others`: the
    records such a true statement names, done before the call (`already`, by default all of them),
    so "your October invoice was paid" stays true."""
    others = tuple(map(str, others))
    return [outcome(v, "not_done", WHY_ASKED_ONLY, record=record, others=others, nouns=ACTION_NOUNS.get(v, ()),
                    already=others if already is None else already) for v in verbs]


AUTOPAY = ("autopay", "auto pay", "auto-pay", "automatic payment", "automatic payments", "recurring payment")
EARLIER_PAID = ("on time", "earlier", "previous", "prior", "last month", "already")


def billing_untouched(h: Household, *owed: Any) -> list[dict[str, Any]]:
    """A billing question answered, nothing paid, waived, extended, split or put on autopay. A
    payment is bound to what is owed (`owed`: its invoices, amounts and dates), so "your October
    invoice was paid on time" (true) passes and "I've processed your $196.88 payment" fails.
    Autopay set up is said in phrases: the verb "set" reads as a report after a modal and "or" ("I
    can take a payment or set up autopay"), and bare it is a state ("your payment is set for ...")."""
    paid = [i for i in h.invoices if i["status"] == "paid"]
    earlier = (*(i["id"] for i in paid), *(i["due_date"] for i in paid), *EARLIER_PAID)
    return [*nothing_done("pay", record=(*owed, "overdue", "past due", "late fee", "balance"), others=earlier),
            *nothing_done("waive", "extend", "split", "enroll", "turn"),
            says_not(fact("i have set up", "", "i've set up", "i set up", "has been set up", "is now set up",
                          "is set up", "is now on", "is on", "now on", "now active", "now enrolled", "signed you up",
                          "enrolled you", "turned on", near=AUTOPAY), why=WHY_ASKED_ONLY),
            # a payment taken in words the verb "pay" does not cover ("I've already processed it")
            says_not(fact("processed it", "", "processed your payment", "processed the payment", "processed that",
                          "processed this", "charged your", "charged the card", "charged it", "charged that",
                          "paid it for you", "paid that for you", "took the payment", "taken the payment"),
                     why=WHY_ASKED_ONLY)]


class GenerationError(RuntimeError):
    """A template built a golden call that the tools refuse: the template is wrong."""


# -- scenes: a household and its golden calls -------------------------------------------------------


@functools.cache
def _seed_rows() -> dict[str, list[dict[str, Any]]]:
    return base.build()


@dataclass
class Household:
    holder: dict[str, Any]
    methods: list[dict[str, Any]]
    policy: dict[str, Any]
    drivers: list[dict[str, Any]]
    vehicles: list[dict[str, Any]]
    coverages: dict[str, dict[str, Any]]
    invoices: list[dict[str, Any]]

    @property
    def id(self) -> str:
        return self.holder["id"]

    @property
    def pol(self) -> str:
        return self.policy["id"]

    @property
    def name(self) -> str:
        return f"{self.holder['first_name']} {self.holder['last_name']}"

    @property
    def first(self) -> str:
        return self.holder["first_name"]

    @property
    def email(self) -> str:
        return self.holder["email"]

    @property
    def dob(self) -> str:
        return self.holder["date_of_birth"]

    @property
    def zip(self) -> str:
        return self.holder["zip_code"]

    @property
    def state(self) -> str:
        return self.policy["state"]

    @property
    def days_in_force(self) -> int:
        return (TODAY - date.fromisoformat(self.policy["effective_date"])).days

    @property
    def identity(self) -> dict[str, Any]:
        """What the policyholder can tell to be found and verified."""
        return {"name": self.name, "email": self.email, "date_of_birth": self.dob, "zip_code": self.zip,
                "policy_number": self.pol}

    def car(self, v: dict[str, Any]) -> str:
        return f"{v['year']} {v['make']} {v['model']}"

    def next_open(self) -> dict[str, Any]:
        return next(i for i in self.invoices if i["status"] == "open")


class InsurancePool(Pool):
    """A split's ids (per prefix, test from 5001 and train from 7001) and the names, emails
    and VINs handed out so far. Names are drawn by each scene's seeded rng (not the kit's
    shuffled pairs) so that every task keeps the customers it had before the kit."""

    def __init__(self, split: str):
        super().__init__(split, default_base=ID_START)
        self.used_names: set[tuple[str, str]] = set()
        self.used_emails: set[str] = set()
        self.used_vins = {v["vin"] for v in _seed_rows()["vin_records"]}


_COPIES = itertools.count(1)  # the private copies' task ids: the backend caches an image per id


@functools.cache
def _backend() -> SQLiteBackend:
    return SQLiteBackend(cache_size=4)


def _sync(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine that never suspends (`SQLiteDatabase` drives sqlite3 inline) without
    an event loop, so scenes also build inside a running one (`generate.py --validate`)."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a golden call suspended: the generator's copy must be an inline SQLiteDatabase")


class InsuranceScene(Scene):
    """One task's rows, built household by household, and its golden calls, run as they are
    recorded on a private copy of the database (opened at the first call, with the rows
    added so far), so a template reads ids and amounts from what the tools answered."""

    pool: InsurancePool

    def __init__(self, pool: InsurancePool, rng: Any):
        super().__init__(pool, rng)
        self.golden = Golden()
        self._db: SQLiteDatabase | None = None

    # ids, people, cars -------------------------------------------------------------------------
    def new_id(self, prefix: str) -> str:
        return self.pool.id(prefix, 4)

    def person(self, last: str | None = None) -> tuple[str, str]:
        firsts, lasts = NAMES[self.split]
        for _ in range(10_000):
            f, la = self.rng.choice(firsts), last or self.rng.choice(lasts)
            if (f, la) not in self.pool.used_names:
                self.pool.used_names.add((f, la))
                return f, la
        raise GenerationError("name pool exhausted")

    def vin(self) -> str:
        while True:
            v = base.make_vin(self.rng)
            if v not in self.pool.used_vins:
                self.pool.used_vins.add(v)
                return v

    def license(self, state: str) -> str:
        digit = "5" if self.split == "test" else "7"
        return f"{state[0]}{digit}{self.rng.randint(1000000, 9999999)}"

    def dob(self, age_min: int, age_max: int) -> str:
        return iso(TODAY - timedelta(days=self.rng.randint(age_min * 365 + 20, age_max * 365 + 300)))

    def persona(self, h: Household, extra: str = "") -> str:
        return f"{h.name}, {self.rng.choice(OCCUPATIONS)}; {self.rng.choice(PERSONAS)}.{(' ' + extra) if extra else ''}"

    def vin_record(self, make: str, model: str, body: str, year: int, value: float) -> dict[str, Any]:
        return self.add("vin_records", {"vin": self.vin(), "year": year, "make": make, "model": model,
                                        "body_style": body, "market_value": float(value)})

    def new_car(self, *, min_year: int = 2019, max_year: int = 2027, models: list[Any] | None = None) -> dict[str, Any]:
        make, model, body, price = self.rng.choice(models or base.MODELS)
        year = self.rng.randint(min_year, max_year)
        return self.vin_record(make, model, body, year, base.market_value(price, year))

    def mvr(self, first: str, last: str, dob: str, state: str, *, status: str = "valid", violations: int = 0,
            accidents: int = 0) -> dict[str, Any]:
        d = date.fromisoformat(dob)
        return self.add("mvr_records", {
            "license_number": self.license(state), "license_state": state, "first_name": first, "last_name": last,
            "date_of_birth": dob, "license_status": status,
            "first_licensed": iso(date(d.year + 16, d.month, min(d.day, 28))), "violations_3y": violations,
            "at_fault_accidents_3y": accidents})

    # the household -----------------------------------------------------------------------------
    def household(
        self,
        *,
        state: str | None = None,
        last: str | None = None,
        first: str | None = None,
        spouse: bool = False,
        children: int = 0,
        cars: int = 1,
        car_models: list[Any] | None = None,
        coverages: dict[str, Any] | None = None,
        lien: list[str | None] | None = None,
        methods: list[tuple[str, str]] | None = None,
        eff_days_ago: int | None = None,
        renewal: bool = False,
        last_due_days_ago: int | None = None,
    ) -> Household:
        """A policyholder with an active 12-month policy on a monthly plan, its drivers,
        vehicles, coverages and the recent instalments (paid, plus the next one open)."""
        rng = self.rng
        state = state or rng.choice(list(base.STATES))
        city, zips, area = base.STATES[state]
        if first and last:
            self.pool.used_names.add((first, last))
            f, la = first, last
        else:
            f, la = self.person(last)
        email = f"{f}.{la}".lower() + "@example.com"
        k = 2
        while email in self.pool.used_emails:
            email = f"{f}.{la}{k}".lower() + "@example.com"
            k += 1
        self.pool.used_emails.add(email)
        holder = self.add("policyholders", {
            "id": self.new_id("PH"), "first_name": f, "last_name": la, "email": email,
            "phone": f"{area}-555-{rng.randint(1000, 9999)}", "date_of_birth": self.dob(34, 66),
            "street": f"{rng.randint(10, 9999)} {rng.choice(base.STREETS)}", "city": city, "state": state,
            "zip_code": rng.choice(zips), "customer_since": iso(date(2015, 1, 1) + timedelta(days=rng.randint(0, 3000)))})
        pms = []
        for kind, brand in methods or [("card", rng.choice(base.CARD_BRANDS))]:
            label = f"{brand} ending {rng.randint(1000, 9999)}"
            pms.append(self.add("payment_methods", {
                "id": self.new_id("PM"), "policyholder_id": holder["id"],
                "kind": "bank_account" if kind == "bank" else "card", "label": label,
                "status": "expired" if kind == "expired" else "active"}))
        if renewal:
            eff = TODAY - timedelta(days=rng.randint(325, 355))
        elif last_due_days_ago is not None:  # the latest instalment fell due that many days ago
            anchor = TODAY - timedelta(days=last_due_days_ago)
            if anchor.day > 28:
                anchor -= timedelta(days=anchor.day - 28)
            eff = base.add_months(anchor, -rng.randint(3, 9))
        else:
            eff = TODAY - timedelta(days=eff_days_ago if eff_days_ago is not None else rng.randint(40, 300))
        pol_id = self.new_id("POL")
        covs = coverages if coverages is not None else {
            "liability": rng.choice(["50/100", "100/300", "100/300", "250/500"]),
            "uninsured_motorist": rng.choice(["50/100", "100/300"]),
            "collision": rng.choice([500, 500, 1000]),
            "comprehensive": rng.choice([250, 500]),
        }
        premium = 0.0
        cov_rows: dict[str, dict[str, Any]] = {}
        for ctype, option in covs.items():
            row = {"id": f"{pol_id}/{ctype}", "policy_id": pol_id, "coverage_type": ctype, "limit_code": None,
                   "deductible": None, "daily_limit": None, "max_days": None,
                   "annual_premium": T.coverage_rate(ctype, option), "status": "active",
                   "effective_date": iso(eff), "removed_on": None}
            if T.OPTION_FIELD[ctype]:
                row[T.OPTION_FIELD[ctype]] = option
            if ctype == "rental_reimbursement":
                row["max_days"] = T.RENTAL_MAX_DAYS
            cov_rows[ctype] = self.add("coverages", row)
            premium += row["annual_premium"]
        people = [(f, la, holder["date_of_birth"], "named_insured")]
        if spouse:
            people.append((self.person(la)[0], la, self.dob(32, 64), "spouse"))
        for _ in range(children):
            people.append((self.person(la)[0], la, self.dob(22, 27), "child"))
        drivers = []
        for pf, pl, pdob, rel in people:
            m = self.mvr(pf, pl, pdob, state)
            drivers.append(self.add("drivers", {
                "id": self.new_id("DRV"), "policy_id": pol_id, "first_name": pf, "last_name": pl, "date_of_birth": pdob,
                "license_number": m["license_number"], "license_state": state, "relationship": rel, "status": "active",
                "added_on": iso(eff), "removed_on": None, "annual_premium": T.driver_rate(T.age_on(pdob, iso(eff)), 0, 0)}))
            premium += drivers[-1]["annual_premium"]
        lien = lien or [None] * cars
        if car_models is None and cars > 1:  # distinct makes, so the caller can name each car
            makes: dict[str, Any] = {}
            for m in rng.sample(base.MODELS, len(base.MODELS)):
                makes.setdefault(m[0], m)
            car_models = rng.sample(list(makes.values()), cars)
        vehicles = []
        for i in range(cars):
            first_year = 2014 if lien[i] is None else 2022  # financed cars are recent
            models = [car_models[i]] if car_models and len(car_models) == cars else car_models
            car = self.new_car(min_year=first_year, max_year=2026, models=models)
            usage = rng.choice(["commute", "pleasure"])
            vehicles.append(self.add("vehicles", {
                "id": self.new_id("VEH"), "policy_id": pol_id, "vin": car["vin"], "year": car["year"],
                "make": car["make"], "model": car["model"], "market_value": car["market_value"], "usage": usage,
                "annual_mileage": rng.choice([6000, 8000, 10000, 12000, 14000]), "lienholder": lien[i],
                "status": "active", "added_on": iso(eff), "removed_on": None, "replaced_by_vehicle_id": None,
                "annual_premium": T.vehicle_rate(car["market_value"], usage)}))
            premium += vehicles[-1]["annual_premium"]
        premium = T.money(premium)
        policy = self.add("policies", {
            "id": pol_id, "policyholder_id": holder["id"], "status": "active", "state": state,
            "effective_date": iso(eff), "expiration_date": iso(eff + timedelta(days=365)), "annual_premium": premium,
            "renewal_premium": T.money(premium * rng.choice([1.02, 1.04, 1.06, 1.09])) if renewal else None,
            "billing_plan": "monthly", "autopay": False, "autopay_payment_method_id": None, "cancelled_on": None})
        monthly = T.money(premium / 12)
        dues = [base.add_months(eff, m) for m in range(12)]
        invoices = []
        for due in [d for d in dues if d < TODAY][-3:] + [d for d in dues if d >= TODAY][:1]:
            paid = due < TODAY
            invoices.append(self.add("invoices", {
                "id": self.new_id("INV"), "policy_id": pol_id, "kind": "installment", "amount": monthly,
                "late_fee": 0.0, "late_fee_waived": False, "amount_paid": monthly if paid else 0.0,
                "original_due_date": iso(due), "due_date": iso(due), "status": "paid" if paid else "open",
                "arrangement_id": None}))
        return Household(holder, pms, policy, drivers, vehicles, cov_rows, invoices)

    def unpay(self, inv: dict[str, Any]) -> None:
        """Turn a paid instalment into an unpaid, past-due one (late fee after 10 days)."""
        late = (TODAY - date.fromisoformat(inv["due_date"])).days
        assert late > 0, inv
        inv.update(amount_paid=0.0, status="past_due", late_fee=T.LATE_FEE if late > 10 else 0.0)

    def claim(self, h: Household, *, status: str, loss_type: str, vehicle: dict[str, Any],
              driver: dict[str, Any] | None, loss_days_ago: int, adjuster: dict[str, Any] | None = None,
              at_fault: bool | None = None, paid: float = 0.0, description: str | None = None) -> dict[str, Any]:
        deductible = None
        if loss_type in ("collision", "comprehensive") and loss_type in h.coverages:
            deductible = h.coverages[loss_type]["deductible"]
        return self.add("claims", {
            "id": self.new_id("CLM"), "policy_id": h.pol, "vehicle_id": vehicle["id"],
            "driver_id": driver["id"] if driver else None, "loss_date": day(-loss_days_ago),
            "reported_on": day(-loss_days_ago + 1), "loss_type": loss_type, "injuries": False,
            "description": description or {"collision": "Hit another car in a parking lot",
                                            "comprehensive": "Hail damage to the hood and roof",
                                            "liability": "Scraped a neighbour's fence"}[loss_type],
            "status": status, "adjuster_id": adjuster["id"] if adjuster else None, "deductible": deductible,
            "contact_phone": h.holder["phone"], "at_fault": at_fault, "rental_days": 0, "rental_daily_limit": None,
            "paid_amount": paid, "closed_on": day(-loss_days_ago + 30) if status in ("closed", "withdrawn") else None,
            "withdraw_reason": None})

    def ticket(self, h: Household, *, subject: str, category: str, claim: dict[str, Any] | None = None,
               days_ago: int = 5, note: str | None = None) -> dict[str, Any]:
        t = self.add("tickets", {
            "id": self.new_id("T"), "policyholder_id": h.id, "policy_id": h.pol,
            "claim_id": claim["id"] if claim else None, "subject": subject, "category": category, "status": "open",
            "priority": "normal", "escalation_reason": None, "created_at": f"{day(-days_ago)}T10:15:00Z"})
        self.add("ticket_notes", {"id": self.new_id("N"), "ticket_id": t["id"], "author": "customer",
                                  "body": note or subject, "created_at": f"{day(-days_ago)}T10:15:00Z"})
        return t

    def adjuster(self, state: str, specialty: str) -> dict[str, Any]:
        """A seed adjuster (active, with room) to hang an existing open claim on."""
        pool = [a for a in _seed_rows()["adjusters"] if a["state"] == state and a["specialty"] == specialty and a["active"]]
        return self.rng.choice(pool)

    @staticmethod
    def states_with_choice(specialty: str) -> list[str]:
        """States with at least two active adjusters of a specialty (so the choice matters)."""
        adjusters = _seed_rows()["adjusters"]
        return [s for s in base.STATES
                if sum(a["state"] == s and a["specialty"] == specialty and a["active"] for a in adjusters) >= 2]

    # golden calls --------------------------------------------------------------------------------
    def _copy(self) -> SQLiteDatabase:
        if self._db is None:
            domain = tb_env.get_domain(DOMAIN)
            task = Task.model_validate({
                "id": f"{DOMAIN}/_generating-{next(_COPIES)}", "split": self.split,
                "user": {"persona": "-", "goal": "-", "first_message": "-"},
                "initial_patch": self.patch(), "wrong_paths": [{"tag": "wrong_reply", "reply": "-"}],
            })
            self._db = SQLiteDatabase(_backend().connect(domain, task), domain.metadata, domain.now)
        return self._db

    def _invoke(self, name: str, arguments: dict[str, Any]) -> Any:
        db = self._copy()
        tool = tb_env.get_domain(DOMAIN).tools_by_name[name]

        async def run() -> Any:
            if tool.writes:
                async with db.transaction():
                    return await tool(db, arguments)
            return await tool(db, arguments)

        try:
            return _sync(run())
        except AgentError as exc:
            raise GenerationError(f"golden call {name}({arguments}) was refused: {exc}") from None

    def run(self, name: str, **arguments: Any) -> Any:
        """Make one golden call on the task's copy and record it; returns what the tool answered."""
        result = self._invoke(name, call(name, **arguments)["arguments"])
        self.golden.add(name, **arguments)
        return result

    def peek(self, name: str, **arguments: Any) -> Any:
        """Ask a read tool without recording the call (to decide what the golden path does)."""
        assert not tb_env.get_domain(DOMAIN).tools_by_name[name].writes, name
        return self._invoke(name, call(name, **arguments)["arguments"])

    def at(self, name: str, nth: int = 0) -> int:
        """The index of the nth golden call of a tool (for wrong paths)."""
        return [i for i, c in enumerate(self.golden.calls) if c["name"] == name][nth]

    def identify(self, h: Household, how: str = "email") -> None:
        """The usual opening: look the caller up and verify them."""
        if how == "email":
            self.run("find_policyholder", email=h.email)
            self.run("verify_identity", policyholder_id=h.id, date_of_birth=h.dob, zip_code=h.zip)
        elif how == "policy":
            self.run("find_policyholder", policy_id=h.pol)
            self.run("verify_identity", policyholder_id=h.id, date_of_birth=h.dob, policy_id=h.pol)
        else:
            self.run("find_policyholder", first_name=h.first, last_name=h.holder["last_name"], zip_code=h.zip)
            self.run("verify_identity", policyholder_id=h.id, date_of_birth=h.dob, zip_code=h.zip)


# the verbs a reply reports each write in: a task whose golden path made no such write fails "I've escalated it",
# "I also refunded the fee" (`tb_env.kit.spec.unasked_writes`; first person only, so true earlier states pass)
# the verbs any change is told with ("I've updated your policy", "I've changed it", "I've set it to $1,000"): every
# tool that changes a record has them, so they are free after any change and a claim on a task that changed nothing
CHANGED = ("update", "change", "set")
CLAIMS: dict[str, tuple[str, ...]] = {
    "escalate_ticket": (*TICKET_CLAIMS["escalate_ticket"], "refer", "forward"),
    "update_ticket_status": (*TICKET_CLAIMS["update_ticket_status"], "mark", *CHANGED),
    "create_ticket": (*TICKET_CLAIMS["create_ticket"], "open", "create", "raise", "send", "forward", "refer",
                      "pass"),
    "add_ticket_note": (*TICKET_CLAIMS["add_ticket_note"], "note", "add", "record", "open", "send", "forward", "refer",
                        "pass", "update"),
    "update_contact_info": CHANGED,
    "add_driver": ("add", *CHANGED),
    "remove_driver": ("remove", *CHANGED),
    "add_vehicle": ("add", "insure", *CHANGED),
    "replace_vehicle": ("replace", "switch", "substitute", *CHANGED),
    "remove_vehicle": ("remove", *CHANGED),
    "change_coverage": ("raise", "lower", "increase", "reduce", *CHANGED),
    "add_coverage": ("add", *CHANGED),
    "remove_coverage": ("remove", "drop", "cancel", *CHANGED),
    "make_payment": ("charge", "pay", "process", "collect", "debit"),
    "waive_late_fee": ("waive", "remove", "refund", "drop", "reverse", "credit"),
    "grant_billing_extension": ("extend", "move", "push", "postpone", "grant", *CHANGED),
    "create_payment_arrangement": ("split", "arrange", "spread", "divide", "schedule", *CHANGED),
    "set_autopay": ("enroll", "enable", "activate", "turn", "switch", "sign", *CHANGED),
    "file_claim": ("file", "open", "submit", "lodge", "report", "create"),
    "assign_adjuster": ("assign",),
    "authorize_rental": ("authorize", "approve", "book", "reserve"),
    "update_claim": ("correct", "fix", "amend", *CHANGED),
    "request_underwriter_approval": ("escalate", "submit", "send", "refer", "forward", "request"),
    "withdraw_claim": ("withdraw", "cancel", *CHANGED),
}
templates = Templates(
    DOMAIN, Path(__file__).parent / "tasks", pool=InsurancePool, scene=InsuranceScene,
    id_format="{domain}/{slug}-{split}-{n:03d}", file_format="{split}/{name}.yaml",
    generator="`python -m tb_env.tasks.auto_insurance.generate`",
    claims=CLAIMS,
)


AUTOPAY_ON = ("i have set up", "i set up", "also set up", "has been set up", "is now set up", "signed you up",
              "enrolled you", "i have enrolled", "i enrolled", "i have turned on", "i turned on", "also turned on",
              "has been turned on", "have enabled", "i enabled", "also enabled", "has been enabled", "is now enabled",
              "is now active", "now enrolled", "set up autopay", "set up auto pay", "set up automatic payment",
              "turned on autopay", "turned autopay on", "enabled autopay", "activated autopay", "autopay is now on")
# an escalation to someone senior, told where no ticket was escalated ("I've escalated it to a supervisor"): the
# verb is free where an underwriter was asked ("I escalated it to underwriting"), its addressee is not
SENIOR = ("supervisor", "manager", "team lead", "senior", "specialist", "second review", "higher up")


def unmade_claims(spec: TaskSpec) -> list[dict[str, Any]]:
    """What every task forbids beside its own assertions: a write its golden path did not make,
    told in words `CLAIMS` cannot bind to one tool ("I've also set up autopay" on a task whose reply
    sets up an arrangement, so "set" is free there)."""
    made = {c["name"] for c in spec.calls}
    out = []
    if "set_autopay" not in made:
        out.append(says_not(fact(AUTOPAY_ON[0], "", *AUTOPAY_ON[1:], near=AUTOPAY),
                            why="autopay was not set up: a reply saying it was claims a write never made"))
    if "escalate_ticket" not in made:
        out.append(says_not(fact("escalated", "", "have escalated", "i escalated", near=SENIOR),
                            why="no ticket was escalated: a reply saying it went to a supervisor claims a write never "
                                "made"))
    return out


def template(description: str, test: int = 3, train: int = 1) -> Callable[[Any], Any]:
    """`templates.template`, each instance seeded `SEED:template:split:n` as before the kit,
    so the port kept every task's data (the kit would seed `template/split/n`)."""

    def register(fn: Callable[[InsuranceScene, int], TaskSpec]) -> Callable[[InsuranceScene, int], TaskSpec]:
        @functools.wraps(fn)
        def seeded(s: InsuranceScene, n: int) -> TaskSpec:
            s.rng.seed(f"{SEED}:{fn.__name__}:{s.split}:{n}")
            spec = fn(s, n)
            spec.assertions = [*spec.assertions, *unmade_claims(spec)]
            return spec

        return templates.template(description, counts={"test": test, "train": train})(seeded)

    return register


# -- templates: read-only ----------------------------------------------------------------------------


@template("who handles a claim and its deductible, with an older closed claim beside it")
def claim_status_read(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(coverages={"liability": "100/300", "collision": s.rng.choice([500, 1000]),
                               "comprehensive": s.rng.choice([250, 500])}, eff_days_ago=s.rng.randint(150, 300))
    veh, drv = h.vehicles[0], h.drivers[0]
    old_adj = s.adjuster(h.state, "collision")
    new_adj = s.adjuster(h.state, "comprehensive")
    old = s.claim(h, status="closed", loss_type="collision", vehicle=veh, driver=drv,
                  loss_days_ago=h.days_in_force - 20, adjuster=old_adj, at_fault=False, paid=1850.0)
    cause = s.rng.choice(["hail damage", "a cracked windshield", "a break-in", "a fallen tree branch"])
    c = s.claim(h, status="assigned", loss_type="comprehensive", vehicle=veh, driver=None,
                loss_days_ago=s.rng.randint(4, 20), adjuster=new_adj, description=f"Comprehensive loss: {cause}")
    s.identify(h)
    mine = next(x for x in s.run("list_claims", policy_id=h.pol) if x["claim_id"] == c["id"])
    adj = mine["adjuster"]
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h),
            goal=f"Find out who is handling the claim for {cause} on the {h.car(veh)} and what the deductible is.",
            first_message=f"Hi, I filed a claim a little while ago for {cause} on my {veh['make']}. "
                          f"Who is handling it, and what will my deductible be? I'm {h.email}.",
            facts={**h.identity, "claim": f"the recent claim for {cause} on the {h.car(veh)}"},
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Your claim {c['id']} for {cause} (loss date {c['loss_date']}) is assigned to adjuster "
               f"{adj['name']}, phone {adj['phone']}. The comprehensive deductible on it is "
               f"{dollars(mine['deductible'])}."),
        assertions=[says(fact(adj["name"], "the caller asked who is handling the claim"),
                         # in its role: not "$500 more than the comprehensive one"
                         fact(mine["deductible"], "the caller asked what the deductible will be",
                              near=["deductible", "out of pocket", "you pay", "you'll pay", "you will pay",
                                    "you'd pay", "pay the first"]), scope="any"),
                    *([says_not(fact(h.coverages["collision"]["deductible"], "",
                                     owner=["deductible will be", "deductible would be", "deductible is going to be",
                                            "you'll pay", "you will pay", "you'd pay", "this claim", c["id"],
                                            cause.removeprefix("a ")],
                                     rivals=["collision", old["id"], "older", "earlier", "previous", "prior"]),
                                why="the recent claim is comprehensive: the collision deductible said as its deductible "
                                    "is the wrong coverage's value")]
                      if h.coverages["collision"]["deductible"] != mine["deductible"] else []),
                    # the adjuster was assigned before the call: not "will be assigned once the review is done"
                    outcome("assign", "done", "the claim already has its adjuster: a reply must not say the assignment "
                                              "is still to come", record=[c["id"], adj["name"]]),
                    # the older claim's adjuster said as this claim's ("Frank Patel is handling your break-in claim")
                    says_not(fact(f"{old_adj['first_name']} {old_adj['last_name']}", "",
                                  owner=[c["id"], cause.removeprefix("a "), "comprehensive", "recent", "new claim",
                                         "current", "open claim"],
                                  rivals=[old["id"], "collision", "earlier", "older", "previous", "prior", "closed",
                                          "last", "first", "parking"]),
                             why="the caller asked who handles the recent claim: the closed claim's adjuster said as "
                                 "its handler is the wrong record's value"),
                    # the older claim's id said as this one's ("Your claim CLM-7001 for a break-in ...")
                    says_not(fact(old["id"], "", owner=[cause.removeprefix("a "), "comprehensive", adj["name"], "recent",
                                                        "new claim", "current", "open claim", "deductible"],
                                  rivals=["collision", "closed", "earlier", "older", "previous", "prior", "last", "first",
                                          f"{old_adj['first_name']} {old_adj['last_name']}"]),
                             why="the caller asked about the recent claim: the closed claim's id said as its id is the "
                                 "wrong record's value"),
                    # only asked: no deductible waived or changed, no rental, no withdrawal or escalation; the
                    # older claim is closed (true), this one is not
                    *nothing_done("waive", "change", "lower", "authorize", "withdraw", "escalate"),
                    *nothing_done("close", record=(c["id"], cause.removeprefix("a "), "comprehensive", "this claim",
                                                   "recent"),
                                  others=(old["id"], "collision", "earlier", "older", "previous", "prior", "first"))],
        wrong=[reply(f"Your claim is handled by adjuster {old_adj['first_name']} {old_adj['last_name']}; the deductible "
                     f"is {dollars(h.coverages['collision']['deductible'])}.",
                     note="reports the older, closed collision claim instead"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="read_only", difficulty="easy", skills=["verification", "claims", "disambiguation"],
    )


@template("the overdue amount (with its late fee) and the next due date")
def billing_balance_read(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(last_due_days_ago=s.rng.randint(12, 26))
    past = [i for i in h.invoices if i["status"] == "paid"][-1]
    s.unpay(past)
    s.identify(h, "policy")
    acct = s.run("get_billing_account", policy_id=h.pol)
    nxt = acct["next_due"]
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Thinks they may have missed a payment."),
            goal="Learn how much is overdue on the policy and when the next payment is due.",
            first_message=f"Hello, I think I missed a payment on policy {h.pol}. How much do I owe right now, and "
                          "when is the next one due?",
            facts=h.identity,
            instructions="Only ask; do not pay anything in this conversation.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Invoice {past['id']} (due {past['due_date']}) is past due: {dollars(acct['past_due_balance'])}, "
               f"which includes a {dollars(T.LATE_FEE)} late fee. Your next instalment, {nxt['invoice_id']}, is "
               f"{dollars(nxt['balance'])} due on {nxt['due_date']}."),
        # the overdue amount in its role, not the late fee's ("a late fee of", "a late charge totaling"), nor as
        # the fee's own balance, where "balance" would be the nearest word (a phrase the binding cannot tell)
        assertions=[says(fact(acct["past_due_balance"], "the caller asked how much they owe now", owner=OVERDUE_OWN,
                              rivals=NEXT_DUE),
                         fact(nxt["due_date"], "the caller asked when the next payment is due"), scope="any"),
                    says_not(fact(acct["past_due_balance"], "", owner=("late fee balance", "late fee total",
                                                                       "late fees total", "fee balance")),
                             why="the overdue amount is the instalment and the late fee together, not the late fee"),
                    *billing_untouched(h, past["id"], past["due_date"], acct["past_due_balance"], past["amount"],
                                       nxt["invoice_id"], nxt["balance"], nxt["due_date"]),
                    # the next instalment and the overdue amount each in its role, neither one step off
                    misstated(nxt["balance"], [acct["past_due_balance"], T.LATE_FEE, acct["total_balance"]],
                              owner=("next", "upcoming", "following", nxt["invoice_id"], nxt["due_date"]),
                              rivals=("overdue", "past due", "owe", "late fee", "fee", "right now", "total",
                                      past["id"], past["due_date"]),
                              why="the next instalment is the tools' figure: another amount said as it is made up or "
                                  "another role's value"),
                    misstated([acct["past_due_balance"], acct["total_balance"]], [nxt["balance"], T.LATE_FEE],
                              owner=("overdue", "past due", "owe", "right now", "behind", past["id"]),
                              rivals=("next", "upcoming", "following", "late fee", "fee", "total balance",
                                      "in total", "altogether", nxt["invoice_id"], nxt["due_date"], "instalment of",
                                      "installment of", "plus", "includ"),
                              why="the overdue amount is the tools' figure: another amount said as it is made up or "
                                  "another role's value")],
        wrong=[reply(f"You owe {dollars(past['amount'])} on invoice {past['id']}; the next instalment is due "
                     f"{nxt['due_date']}.", note="forgets the late fee in the overdue amount"),
               append(call("make_payment", invoice_id=past["id"], amount=acct["past_due_balance"],
                           payment_method_id=h.methods[0]["id"]),
                      note="charges the overdue balance although the caller only asked"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="read_only", difficulty="easy", skills=["verification", "billing"],
    )


@template("renewal date, renewal premium and a deductible, with the expired previous term beside it")
def renewal_read(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(renewal=True)
    old_eff = date.fromisoformat(h.policy["effective_date"]) - timedelta(days=365)
    old_id = s.new_id("POL")
    s.add("policies", {
        "id": old_id, "policyholder_id": h.id, "status": "expired", "state": h.state, "effective_date": iso(old_eff),
        "expiration_date": h.policy["effective_date"], "annual_premium": T.money(h.policy["annual_premium"] * 0.93),
        "renewal_premium": None, "billing_plan": h.policy["billing_plan"], "autopay": False,
        "autopay_payment_method_id": None, "cancelled_on": None})
    ctype = s.rng.choice(["collision", "comprehensive"])
    old_ded = 250 if h.coverages[ctype]["deductible"] != 250 else 1000
    s.add("coverages", {
        "id": f"{old_id}/{ctype}", "policy_id": old_id, "coverage_type": ctype, "limit_code": None,
        "deductible": old_ded, "daily_limit": None, "max_days": None, "annual_premium": T.coverage_rate(ctype, old_ded),
        "status": "active", "effective_date": iso(old_eff), "removed_on": None})
    s.identify(h)
    s.run("get_policyholder", policyholder_id=h.id)
    pol = s.run("get_policy", policy_id=h.pol)
    ded = next(c for c in pol["coverages"] if c["coverage_type"] == ctype)["deductible"]
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Budgeting for next year."),
            goal=f"Learn the renewal date and renewal premium of the current policy, and the {ctype} deductible.",
            first_message=f"Hi! When does my car insurance renew, and what will it cost next year? Also, what's my "
                          f"{ctype} deductible right now? My email is {h.email}.",
            facts=h.identity,
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Your policy {h.pol} renews on {pol['expiration_date']}. The renewal premium offered for the next "
               f"term is {dollars(pol['renewal_premium'])} (currently {dollars(pol['annual_premium'])} a year). Your "
               f"{ctype} deductible is {dollars(ded)}."),
        assertions=[says(fact(pol["expiration_date"], "the caller asked when the policy renews"),
                         fact(pol["renewal_premium"], "the caller asked what next year will cost", owner=RENEWAL_OWN,
                              rivals=RENEWAL_RIVALS),
                         fact(ded, f"the caller asked for the current {ctype} deductible", owner=["deductible"],
                              rivals=["premium", "renew", "cost", "a year", "per year", "next term", "currently pay"]),
                         scope="any"),
                    # only asked: not renewed, no deductible changed; the premium rising at renewal is true
                    *nothing_done("renew"),
                    *nothing_done("raise", "lower", "change", record=("deductible", "collision", "comprehensive"),
                                  others=("premium", "renewal", "term", "cost", "price", "rate", "policy", h.pol,
                                          old_id))],
        wrong=[reply(f"Your policy {old_id} renewed on {h.policy['effective_date']}; your {ctype} deductible is "
                     f"{dollars(old_ded)}.", note="reads the expired previous term"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="read_only", difficulty="easy", skills=["verification", "policy", "renewal", "disambiguation"],
    )


# -- templates: single writes ------------------------------------------------------------------------


@template("a new phone number (and sometimes email), verified by zip code or policy number")
def update_contact(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household()
    how = s.rng.choice(["email", "policy"])
    area = base.STATES[h.state][2]
    formatted = f"{area}-555-{s.rng.randint(1000, 9999)}"
    new_phone = formatted if s.rng.random() < 0.7 else f"({area}) 555-{formatted[-4:]}"
    change_email = s.rng.random() < 0.4
    new_email = f"{h.first.lower()}.{s.rng.choice(['home', 'mail', 'inbox'])}{s.rng.randint(10, 99)}@example.net"
    s.identify(h, how)
    args: dict[str, Any] = {"policyholder_id": h.id, "phone": new_phone, "email": new_email if change_email else None}
    s.run("update_contact_info", **args)
    ask = f"my new phone number {new_phone}" + (f" and my new email {new_email}" if change_email else "")
    typo = f"({area}) 555-{new_phone[-4:][::-1]}" if new_phone[-4:][::-1] != new_phone[-4:] else f"({area}) 555-0000"
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h),
            goal=f"Update the contact details on file: phone {new_phone}"
                 + (f", email {new_email}" if change_email else "") + ".",
            first_message=f"Hi, please update {ask}. "
                          + (f"My email is {h.email}." if how == "email" else f"Policy {h.pol}."),
            facts={**h.identity, "new_phone": new_phone, **({"new_email": new_email} if change_email else {})},
            wants=[new_phone, "phone", *([new_email, "email"] if change_email else [])], declines=[typo],
        ),
        patch=s.patch(), golden=s.golden,
        reply=f"Done: your phone number is now {formatted}" + (f" and your email is {new_email}." if change_email else "."),
        assertions=[says(fact(formatted, WHY_CHANGED), *([fact(new_email, WHY_CHANGED)] if change_email else []),
                         scope="any"),
                    *asked_done(s, names={h.id: ["phone", formatted, *([new_email] if change_email else [])]}),
                    *said_as_new(h.holder["phone"], *([h.email] if change_email else []), new=CONTACT_NEW,
                                 why="the contact details on file before the call said as the new ones")],
        wrong=[replace({s.at("update_contact_info"): call("update_contact_info", **{**args, "phone": typo})},
                       tag="wrong_entity", note="a mistyped phone number"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="single_write", difficulty="easy", skills=["verification", "account"],
    )


@template("autopay on the payment method the caller names, beside an expired card and another method")
def autopay_enroll(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(methods=[("card", "Visa"), ("expired", "Visa"), ("bank", "Checking")])
    target = s.rng.choice([h.methods[0], h.methods[2]])
    other = h.methods[2] if target is h.methods[0] else h.methods[0]
    s.identify(h)
    s.run("get_policyholder", policyholder_id=h.id)
    s.run("set_autopay", policy_id=h.pol, enabled=True, payment_method_id=target["id"])
    # the next instalment the reply tells, as a tool reads it (a reply states only what the tools gave)
    s.run("get_billing_account", policy_id=h.pol)
    nxt = h.next_open()
    what = "checking account" if target["kind"] == "bank_account" else "Visa card"
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Keeps forgetting due dates."),
            goal=f"Turn on autopay for the policy, charged to the {what} ({target['label']}).",
            first_message=f"Hi, I'd like to set up autopay on my car insurance using my {what} ending "
                          f"{target['label'][-4:]}. Email is {h.email}.",
            facts={**h.identity, "autopay_method": target["label"]},
            wants=[target["label"][-4:], "autopay"],
            declines=[other["label"][-4:], h.methods[1]["label"][-4:], "checking" if target is h.methods[0] else "card"],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Autopay is now on for policy {h.pol}, charged to the {'account' if what.startswith('checking') else 'card'} "
               f"ending {target['label'][-4:]}. Your next instalment, "
               f"{dollars(nxt['amount'])} due {nxt['due_date']}, will be charged automatically."),
        # the checking account is the only bank account on file; "your Visa" could be the expired one too
        assertions=[says(fact(target["label"][-4:], f"{WHY_CHANGED}: the payment method autopay now charges",
                              *(("checking", "bank account") if what.startswith("checking") else ())),
                         scope="any"),
                    *asked_done(s, names={h.pol: ["autopay"]}),
                    *(says_not(fact(m["label"][-4:], "", owner=[*AUTOPAY, "charge", "set up", "is on", "now on",
                                                                  "enrolled", "use", "using", "draw", "debit", "from"],
                                    rivals=["expired", "not", "instead of", "rather than", "other", "also on file"]),
                               why="autopay charges the method the caller named: another method said as the one it "
                                   "charges is the wrong record's value")
                      for m in h.methods if m is not target)],
        wrong=[replace({s.at("set_autopay"): call("set_autopay", policy_id=h.pol, enabled=True,
                                                  payment_method_id=other["id"])},
                       tag="wrong_entity", note="sets up autopay on the other payment method"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="single_write", difficulty="easy", skills=["verification", "billing", "autopay", "disambiguation"],
    )


@template("a higher collision or comprehensive deductible from a stated date, and what it saves")
def deductible_change(s: InsuranceScene, n: int) -> TaskSpec:
    ctype = s.rng.choice(["collision", "comprehensive"])
    cur = 500 if ctype == "collision" else s.rng.choice([250, 500])
    new = 1000 if ctype == "collision" else (500 if cur == 250 else 1000)
    covs = {"liability": "100/300", "collision": 500, "comprehensive": 250}
    covs[ctype] = cur
    h = s.household(coverages=covs, cars=s.rng.choice([1, 2]))
    eff = day(s.rng.choice([0, 0, 1, 3, 5, 7, 14]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("quote_coverage_change", policy_id=h.pol, coverage_type=ctype, effective_date=eff, deductible=new)
    res = s.run("change_coverage", policy_id=h.pol, coverage_type=ctype, effective_date=eff, deductible=new)
    other = "comprehensive" if ctype == "collision" else "collision"
    wrong_ded = 2000 if ctype == "collision" else (1000 if new != 1000 else 250)
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Wants a lower premium and can afford a higher deductible."),
            goal=f"Raise the {ctype} deductible from ${cur} to ${new}, effective {eff}, and learn the savings.",
            first_message=f"Hi, I'd like to raise my {ctype} deductible to ${new:,} "
                          f"{'starting today' if eff == day(0) else 'starting ' + spoken(eff)}. How much will that "
                          f"save me? I'm {h.email}.",
            facts={**h.identity, "coverage": ctype, "new_deductible": new, "effective_date": eff},
            wants=[str(new), "deductible"], declines=[other, str(wrong_ded)],
        ),
        patch=s.patch(), golden=s.golden,
        # "from today", not "2026-11-30": the normaliser splits an ISO date into numbers, so the
        # date would also state a saving of $30, and the wrong-fact probe could not bite
        reply=(f"Your {ctype} deductible is now {dollars(new)} from {when(eff)}. That saves you "
               f"{dollars(res['annual_premium_change'])} a year; the credit for the rest of this term goes on invoice "
               f"{res['billing']['invoice_id']}."),
        assertions=[*premium_checks(res, WHY_COST, rivals=("deductible",),
                                   also=(fact(new, f"{WHY_CHANGED}: the new deductible", owner=DEDUCTIBLE_OWN,
                                              rivals=DEDUCTIBLE_RIVALS),)),
                    *asked_done(s, names={ctype: ["deductible"]}),
                    *said_as_new(f"${cur:,}", f"${wrong_ded:,}", near=("deductible",),
                                 new=(*NEW_ROLE, "deductible is", "deductible of", "deductible to"),
                                 why="the deductible before the change, or one not asked for, said as the new one"),
                    # the other coverage's deductible said changed ("your comprehensive deductible is now $1,000")
                    says_not(fact(f"{other} deductible is now", "", f"{other} deductible to", f"{other} deductible has",
                                  f"{other} deductible will be", f"raised your {other}", f"changed your {other}",
                                  f"updated your {other}"),
                             why=f"only the {ctype} deductible changed: the {other} one said changed is the wrong record")],
        wrong=[replace({s.at("change_coverage"): call(
                   "change_coverage", policy_id=h.pol, coverage_type=ctype, effective_date=eff,
                   deductible=wrong_ded)},
                   tag="wrong_amount", note="sets a different deductible than asked"),
               replace({s.at("change_coverage"): call("change_coverage", policy_id=h.pol, coverage_type=other,
                                                      effective_date=eff, deductible=1000)},
                       tag="wrong_entity", note="changes the other physical-damage coverage"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="single_write", difficulty="medium", skills=["verification", "coverage", "premium", "effective_date"],
    )


OPTIONAL_NAMES = {"rental_reimbursement": ("rental reimbursement", "rental car coverage", "rental coverage"),
                  "roadside_assistance": ("roadside assistance", "roadside coverage", "roadside"),
                  "medical_payments": ("medical payments", "medical payment", "med pay", "medpay")}


@template("rental, roadside or medical-payments coverage added from a stated date, and its cost")
def add_optional_coverage(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household()
    kind = s.rng.choice(["rental_reimbursement", "rental_reimbursement", "roadside_assistance", "medical_payments"])
    eff = day(s.rng.choice([0, 1, 2, 5, 10]))
    opt: dict[str, Any] = {}
    alt: dict[str, Any] | None = None
    if kind == "rental_reimbursement":
        opt = {"daily_limit": s.rng.choice([30, 40, 50])}
        alt = {"daily_limit": 50 if opt["daily_limit"] != 50 else 30}
        what = f"rental car coverage at ${opt['daily_limit']} a day"
    elif kind == "medical_payments":
        opt = {"limit_code": s.rng.choice(["5000", "10000"])}
        alt = {"limit_code": "10000" if opt["limit_code"] == "5000" else "5000"}
        what = f"medical payments coverage with a ${int(opt['limit_code']):,} limit"
    else:
        what = "roadside assistance"
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("quote_coverage_change", policy_id=h.pol, coverage_type=kind, effective_date=eff, **opt)
    res = s.run("add_coverage", policy_id=h.pol, coverage_type=kind, effective_date=eff, **opt)
    at = s.at("add_coverage")
    if alt:
        other_option = replace({at: call("add_coverage", policy_id=h.pol, coverage_type=kind, effective_date=eff, **alt)},
                               tag="wrong_amount", note="adds the coverage with another option")
    else:
        other_option = append(call("add_coverage", policy_id=h.pol, coverage_type="rental_reimbursement",
                                   effective_date=eff, daily_limit=30), note="also adds rental coverage nobody asked for")
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h),
            goal=f"Add {what} to the policy starting {eff}.",
            first_message=f"Hello, I want to add {what} to my policy, starting "
                          f"{'today' if eff == day(0) else 'on ' + spoken(eff)}. What will it cost? My email is {h.email}.",
            facts={**h.identity, "coverage": what, "effective_date": eff},
            wants=[kind.split("_")[0], *map(str, opt.values())], declines=[*map(str, (alt or {}).values())],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"{what[0].upper() + what[1:]} is added from {eff}. It costs {dollars(res['annual_premium_change'])} a "
               f"year; the part for the rest of this term is added to invoice {res['billing']['invoice_id']} due "
               f"{res['billing']['due_date']}."),
        assertions=[*premium_checks(res, WHY_COST, rivals=("limit",)),
                    *asked_done(s, names={kind: [kind.split("_")[0]]}),
                    *([says_not(fact(f"${v:,}" if isinstance(v, int) else f"${int(v):,}", "",
                                     near=["a day", "per day", "daily", "/day", "limit", "rental", "medical",
                                           "coverage", "added"]),
                                why="the caller chose another option: the option not chosen said as the one added")
                       for v in (alt or {}).values()]),
                    *(says_not(fact(f"added {OPTIONAL_NAMES[o][0]}", "", *(f"{w} {name}" for name in OPTIONAL_NAMES[o]
                                                                      for w in ("added", "added your")),
                                  *(f"{name} is added" for name in OPTIONAL_NAMES[o]),
                                  *(f"{name} is now" for name in OPTIONAL_NAMES[o]),
                                  *(f"{name} has been added" for name in OPTIONAL_NAMES[o]),
                                  *(f"{name} starts" for name in OPTIONAL_NAMES[o])),
                             why="the caller asked for one coverage: another one said added was never added")
                      for o in OPTIONAL_NAMES if o != kind)],
        wrong=[other_option,
               replace({at: call("add_coverage", policy_id=h.pol, coverage_type=kind,
                                 effective_date=day(0) if eff != day(0) else day(7), **opt)},
                       tag="wrong_amount", note="starts the coverage today instead of on the requested date"
                       if eff != day(0) else "starts the coverage a week late"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="single_write", difficulty="medium", skills=["verification", "coverage", "premium", "effective_date"],
    )


@template("a due date moved within the 14-day limit; a date past it gets the latest allowed, with the rule")
def billing_extension(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(last_due_days_ago=s.rng.randint(20, 26))
    nxt = h.next_open()
    orig = nxt["original_due_date"]
    if s.rng.random() < 0.5:  # one earlier extension this year: still within the limit of 2
        paid = next(i for i in h.invoices if i["status"] == "paid")
        due = date.fromisoformat(paid["due_date"])
        s.add("billing_extensions", {
            "id": s.new_id("EXT"), "invoice_id": paid["id"], "policy_id": h.pol, "previous_due_date": paid["due_date"],
            "new_due_date": iso(due + timedelta(days=7)), "granted_on": iso(due - timedelta(days=2)),
            "reason": "Paycheck timing"})
    too_long = s.rng.random() < 0.5
    limit = iso(date.fromisoformat(orig) + timedelta(days=14))
    asked = iso(date.fromisoformat(orig) + timedelta(days=s.rng.randint(17, 24) if too_long else s.rng.randint(5, 12)))
    new = limit if too_long else asked
    s.identify(h)
    s.run("get_billing_account", policy_id=h.pol)
    res = s.run("grant_billing_extension", invoice_id=nxt["id"], new_due_date=new,
                reason="Customer needs more time before payday")
    facts = [fact(new, "the caller asked to move the due date; policy: tell the new due date")]
    if too_long:
        facts.append(fact("14 day", f"{WHY_DECLINE}: the asked date is past the 14-day limit", "2 week"))
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Payday is later than usual this month."),
            goal=f"Move the payment due {orig} to {asked}" + (", or else to the latest date allowed." if too_long else "."),
            first_message=f"Hi, my car insurance payment is due {spoken(orig)} but I get paid late this month. Can you "
                          f"push it to {spoken(asked)}? {h.email}",
            facts={**h.identity, "payment_due_date": orig, "wanted_due_date": asked,
                   "if_that_date_is_not_possible": "the latest due date you can give me"},
            wants=[new, asked, nxt["id"], "extension", "due date"], declines=[] if too_long else [limit],
        ),
        patch=s.patch(), golden=s.golden,
        reply=((f"Extensions can move a due date at most 14 days past the original due date, so the latest "
                f"possible is {limit}. " if too_long else "")
               + f"Invoice {nxt['id']} ({dollars(res['balance'])}) is now due on {res['new_due_date']}."),
        # the due date is the extension's noun: "your due date will move to ... once a supervisor approves it"
        # says it waits in words the verb "extend" does not cover
        assertions=[says(*facts, scope="any"),
                    *asked_done(s, names={nxt["id"]: [nxt["due_date"]]}, nouns={nxt["id"]: ("due date",)}),
                    *said_as_new(orig, new=(*NEW_ROLE, "date to", "due on", "due date is", "now due"),
                                 why="the due date before the extension said as the new one"),
                    # the asked date in the new date's role, not set against it ("2026-12-18 rather than 2026-12-28")
                    *([says_not(fact(asked, "", owner=["now due", "extended", "moved to", "pushed", "new due date",
                                                       "due date is now", "changed to"],
                                     rivals=["rather than", "instead of", "beyond", "later than", "past the",
                                             "exceeds", "over the"]),
                                why="the date asked is past the 14-day limit: a reply saying the invoice is due then "
                                    "claims what was refused")] if too_long else [])],
        wrong=[replace({s.at("grant_billing_extension"): call(
                   "grant_billing_extension", invoice_id=nxt["id"], new_due_date=asked if too_long else limit,
                   reason="Customer needs more time before payday")},
                   tag="wrong_amount", note="grants the date asked for, past the 14-day limit" if too_long
                   else "moves the due date to the 14-day maximum instead of the date asked for"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="single_write", difficulty="medium", skills=["verification", "billing", "extension", "policy_limits"],
    )


@template("the overdue balance (late fee included) paid with the card the caller names")
def pay_invoice(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(last_due_days_ago=s.rng.randint(12, 27),
                    methods=[("card", "Mastercard"), ("card", s.rng.choice(["Visa", "Amex", "Discover"]))])
    past = [i for i in h.invoices if i["status"] == "paid"][-1]
    s.unpay(past)
    card = s.rng.choice(h.methods)
    other = h.methods[1] if card is h.methods[0] else h.methods[0]
    s.identify(h)
    acct = s.run("get_billing_account", policy_id=h.pol)
    s.run("get_policyholder", policyholder_id=h.id)
    bal = acct["past_due_balance"]
    res = s.run("make_payment", invoice_id=past["id"], amount=bal, payment_method_id=card["id"])
    at = s.at("make_payment")
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Embarrassed about the missed payment."),
            goal=f"Pay the overdue amount in full with the {card['label']}.",
            first_message=f"Hi, I missed a payment. I'd like to pay whatever is overdue with my {card['label']}. "
                          f"Email: {h.email}",
            facts={**h.identity, "card": card["label"], "amount": "whatever is overdue, nothing more"},
            instructions="Pay only what is overdue, not the upcoming instalment. Do not ask for the fee to be waived.",
            wants=[str(bal), card["label"][-4:], "overdue", "pay", "charge"],
            declines=[other["label"][-4:], str(past["amount"])],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I charged {dollars(res['charged'])} to your {card['label']} for invoice {past['id']} (the "
               f"instalment plus the {dollars(T.LATE_FEE)} late fee). That invoice is now paid."),
        assertions=[says(fact(bal, "the caller asked to pay what is overdue; policy: tell the caller the payment",
                              owner=PAID_OWN, rivals=PAID_RIVALS), scope="any"),
                    *asked_done(s),
                    says_not(fact(other["label"][-4:], "", owner=[*PAID_OWN, "from", "to your", "on your", "with your",
                                                                  "using"],
                                  rivals=["not", "instead of", "rather than", "other", "also on file"]),
                             why="the caller named the method to charge: the other one said charged is the wrong "
                                 "record's value"),
                    # what is left after the payment: nothing on the invoice (the next instalment on the account)
                    misstated([0.01, acct["next_due"]["balance"]], [bal, T.LATE_FEE, past["amount"], acct["total_balance"]],
                              owner=("remaining", "left", "still owe", "outstanding", "balance on it",
                                     "balance remaining"),
                              rivals=("next", "upcoming", "charged", "paid", "late fee", "fee of", "instalment of",
                                      "installment of", "plus", acct["next_due"]["due_date"]),
                              why="the payment cleared the invoice: an amount said to remain is made up"),
                    still_owing(f"the next instalment ({acct['next_due']['invoice_id']}, due {acct['next_due']['due_date']})")],
        wrong=[replace({at: call("make_payment", invoice_id=past["id"], amount=past["amount"],
                                 payment_method_id=card["id"])},
                       tag="wrong_amount",
                       note="charges the instalment without the late fee, leaving the invoice past due"),
               replace({at: call("make_payment", invoice_id=past["id"], amount=bal, payment_method_id=other["id"])},
                       tag="wrong_entity", note="charges the other card"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="single_write", difficulty="medium", skills=["verification", "billing", "payments", "late_fee"],
    )


@template("withdraw the windshield claim on one car; the collision claim on the other stays open")
def withdraw_claim_request(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(cars=2, coverages={"liability": "100/300", "collision": 500, "comprehensive": 500},
                    eff_days_ago=s.rng.randint(90, 300))
    v1, v2 = h.vehicles
    glass = s.claim(h, status="reported", loss_type="comprehensive", vehicle=v1, driver=None,
                    loss_days_ago=s.rng.randint(2, 6), description="Chip in the windshield")
    adj = s.adjuster(h.state, "collision")
    other = s.claim(h, status="assigned", loss_type="collision", vehicle=v2, driver=h.drivers[0],
                    loss_days_ago=s.rng.randint(8, 30), adjuster=adj)
    s.identify(h)
    s.run("list_claims", policy_id=h.pol)
    s.run("withdraw_claim", claim_id=glass["id"], reason="Customer will pay for the windshield repair")
    same_model = v1["model"] == v2["model"]
    glass_words = [glass["id"], "windshield", "windscreen", "glass", "chip", "comprehensive",
                   *([] if same_model else model_forms(v1["model"])), *([v1["make"]] if v1["make"] != v2["make"] else [])]
    other_words = [other["id"], "collision", "accident", *([] if same_model else model_forms(v2["model"])),
                   *([v2["make"]] if v1["make"] != v2["make"] else [])]
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Decided the repair is cheaper than the deductible."),
            goal=f"Withdraw the windshield claim on the {h.car(v1)}; keep the other claim open.",
            first_message=f"Hi, I reported a windshield chip on my {v1['make']} {v1['model']} a few days ago, but I'll "
                          f"just pay for it myself. Can you cancel that claim? {h.email}",
            facts={**h.identity, "claim": f"the windshield chip claim on the {h.car(v1)}",
                   "reason": "I'll pay for the windshield repair myself",
                   "other_claim": f"the collision claim on the {h.car(v2)} stays open"},
            wants=[glass["id"], "windshield", "withdraw", "cancel"], declines=[other["id"]],
        ),
        patch=s.patch(), golden=s.golden,
        reply=f"Your windshield claim {glass['id']} is withdrawn. Your collision claim {other['id']} stays open.",
        # the status word binds to the windshield claim: "I've withdrawn your collision claim" names the wrong one
        assertions=[unchanged("claims", other["id"], "status"),
                    says(fact("withdrawn", "the caller asked to cancel the claim; policy (Claims): tell the claim's status",
                              *STATUS_WITHDRAWN, near=[glass["id"], "claim", "windshield", *glass_words], owner=glass_words,
                              rivals=other_words)),
                    says_not(fact("withdrawn", "", *STATUS_WITHDRAWN, owner=other_words, rivals=glass_words),
                             why="the collision claim stays open: a reply saying it was withdrawn names the wrong claim"),
                    # withdrawn, in the agent's word and the caller's ("cancel"): not "still pending", not "couldn't"
                    *asked_done(s, names={glass["id"]: glass_words}, others={glass["id"]: other_words},
                          nouns={glass["id"]: ("claim",)}),
                    outcome("cancel", "done", WHY_DONE, record=glass_words, others=other_words, nouns=["claim"])],
        wrong=[replace({s.at("withdraw_claim"): call("withdraw_claim", claim_id=other["id"],
                                                     reason="Customer will pay for the repair")},
                       tag="wrong_entity", note="withdraws the open collision claim instead"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="single_write", difficulty="medium", skills=["verification", "claims", "disambiguation"],
    )


@template("correct the loss date and the vehicle of a claim no adjuster has yet")
def claim_correction_reported(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(cars=2, coverages={"liability": "100/300", "collision": 500, "comprehensive": 500},
                    eff_days_ago=s.rng.randint(60, 300))
    v1, v2 = h.vehicles
    wrong_loss = s.rng.randint(2, 5)
    c = s.claim(h, status="reported", loss_type="collision", vehicle=v1, driver=h.drivers[0],
                loss_days_ago=wrong_loss, description="Backed into a bollard")
    real = day(-wrong_loss - s.rng.randint(1, 3))
    s.identify(h)
    s.run("get_claim", claim_id=c["id"])
    s.run("get_policy", policy_id=h.pol)  # (the other car's id: read, not guessed)
    s.run("update_claim", claim_id=c["id"], loss_date=real, vehicle_id=v2["id"])
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Filed the claim online in a rush."),
            goal=f"Correct claim {c['id']}: the loss was on {real} and it was the {h.car(v2)}, not the {h.car(v1)}.",
            first_message=f"I made two mistakes on claim {c['id']}: it happened on {spoken(real)}, and it was my "
                          f"{v2['make']} {v2['model']}, not the {v1['make']}. Can you fix it? I'm {h.email}.",
            facts={**h.identity, "claim_id": c["id"], "real_loss_date": real, "real_vehicle": h.car(v2)},
            wants=[real, *model_forms(v2["model"]), "correct", "update", "fix"], declines=[],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Claim {c['id']} is corrected: loss date {real}, vehicle: your {v2['model']}. No adjuster has been "
               "assigned yet, so the adjuster will see the corrected details."),
        assertions=[says(fact(real, f"the caller asked to correct the loss date; {WHY_CHANGED}"),
                         fact(v2["model"], f"the caller asked to correct the vehicle; {WHY_CHANGED}",
                              *model_forms(v2["model"])[1:], v2["id"], *([v2["make"]] if v2["make"] != v1["make"] else [])),
                         scope="any"),
                    *asked_done(s),
                    *said_as_new(c["loss_date"], *([] if v1["model"] == v2["model"] else model_forms(v1["model"])),
                                 new=("now", "corrected to", "changed to", "updated to", "set to", "vehicle:", "loss date:",
                                      "is the", "on your", "to your", "new"),
                                 why="the date or the car on file before the correction said as the corrected one")],
        wrong=[replace({s.at("update_claim"): call("update_claim", claim_id=c["id"], loss_date=real)},
                       tag="wrong_entity", note="fixes the date but leaves the wrong vehicle on the claim"),
               drop(s.at("update_claim"), note="does not correct the claim"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="single_write", difficulty="medium", skills=["verification", "claims", "claim_rules"],
    )


# -- templates: multi-step workflows -------------------------------------------------------------------


def _best(adjusters: list[dict[str, Any]]) -> dict[str, Any]:
    """Policy: fewest open claims among those with capacity; ties to the lowest id."""
    return min((a for a in adjusters if a["has_capacity"]), key=lambda a: (a["open_claims"], a["adjuster_id"]))


def _runner_up(adjusters: list[dict[str, Any]], best: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in adjusters if a["has_capacity"] and a["adjuster_id"] != best["adjuster_id"])


def _who_drove(drv: dict[str, Any]) -> str:
    return "I was driving" if drv["relationship"] == "named_insured" else \
        f"My {drv['relationship']} {drv['first_name']} was driving"


@template("first notice of a collision: file, assign the least busy adjuster, authorise the shop's rental days",
          test=3, train=2)
def fnol_assign(s: InsuranceScene, n: int) -> TaskSpec:
    state = s.rng.choice(s.states_with_choice("collision"))
    h = s.household(state=state, spouse=s.rng.random() < 0.5, cars=s.rng.choice([1, 2]),
                    coverages={"liability": "100/300", "collision": s.rng.choice([500, 1000]),
                               "comprehensive": 500, "rental_reimbursement": s.rng.choice([30, 40, 50])},
                    eff_days_ago=s.rng.randint(60, 300))
    veh = s.rng.choice(h.vehicles)
    drv = s.rng.choice(h.drivers)
    said, desc = s.rng.choice(COLLISIONS)
    loss = day(-s.rng.randint(0, 4))
    days = s.rng.choice(REPAIR_DAYS)
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("list_claims", policy_id=h.pol)
    claim = s.run("file_claim", policy_id=h.pol, vehicle_id=veh["id"], loss_date=loss, loss_type="collision",
                  description=desc, driver_id=drv["id"], injuries=False)
    adjs = s.run("find_adjusters", state=state, specialty="collision")
    best = _best(adjs)
    s.run("assign_adjuster", claim_id=claim["claim_id"], adjuster_id=best["adjuster_id"])
    rental = s.run("authorize_rental", claim_id=claim["claim_id"], days=days)
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Shaken but unhurt; the car is at a body shop."),
            goal=f"Report the collision of {loss} with the {h.car(veh)}, get an adjuster, and get a rental car "
                 f"for the {days} days the shop estimated.",
            first_message=f"Hi, I need to report an accident: on {spoken(loss)} {said} in my {veh['make']} "
                          f"{veh['model']}. {_who_drove(drv)}, and nobody was hurt. The shop says repairs take {days} "
                          f"days, so I'll need a rental. My email is {h.email}.",
            facts={**h.identity, "loss_date": loss, "vehicle": h.car(veh), "incident": said,
                   "driver": f"{drv['first_name']} {drv['last_name']}", "injuries": "nobody was hurt",
                   "days_in_repair_shop": days},
            wants=["claim", "adjuster", "rental", best["name"], f"{days} day"],
            declines=["30 day", _runner_up(adjs, best)["name"]],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Your claim {claim['claim_id']} is filed (collision, loss date {loss}, deductible "
               f"{dollars(claim['deductible'])}). Adjuster {best['name']} ({best['phone']}) is assigned and will "
               f"contact you. I've authorised {days} rental days at up to {dollars(rental['daily_limit'])} a day."),
        assertions=[says(fact(claim["claim_id"], WHY_CLAIM_ID), fact(best["name"], WHY_ADJUSTER),
                         fact(best["phone"], WHY_ADJUSTER), fact(f"${rental['daily_limit']:.2f}", WHY_RENTAL, owner=DAILY_OWN, rivals=DAILY_RIVALS), scope="any"),
                    *asked_done(s, names={"file": [claim["claim_id"]], claim["claim_id"]: [best["name"]]}),
                    *rental_claim_roles(claim, rental),
                    claim_not_denied(claim["claim_id"])],
        wrong=[replace({s.at("assign_adjuster"): call("assign_adjuster", claim_id=claim["claim_id"],
                                                      adjuster_id=_runner_up(adjs, best)["adjuster_id"])},
                       tag="wrong_entity", note="assigns an adjuster with more open claims"),
               replace({s.at("authorize_rental"): call("authorize_rental", claim_id=claim["claim_id"], days=30)},
                       tag="wrong_amount", note="authorises the 30-day maximum instead of the shop's estimate"),
               drop(s.at("assign_adjuster"), note="files the claim but assigns no adjuster")],
        kind="multi_step", difficulty="hard", skills=["verification", "claims", "fnol", "adjusters", "rental"],
    )


@template("first notice of a collision with injuries: injury adjuster, a linked ticket, escalated")
def fnol_injury(s: InsuranceScene, n: int) -> TaskSpec:
    state = s.rng.choice([st for st in s.states_with_choice("injury") if st in s.states_with_choice("collision")])
    h = s.household(state=state, spouse=True, coverages={
        "liability": "100/300", "collision": 500, "comprehensive": 500, "medical_payments": "5000"},
        eff_days_ago=s.rng.randint(60, 300))
    veh = h.vehicles[0]
    drv = s.rng.choice(h.drivers)
    said, desc = s.rng.choice(COLLISIONS)
    hurt = s.rng.choice(["my passenger hurt her wrist", "I have whiplash", "the other driver hurt his shoulder",
                         "my spouse bruised some ribs"])
    if "other driver" in hurt and not re.search(r"\b(?:car|someone|rear-ended)\b", said):
        hurt = "I have whiplash"  # (a pillar or a guardrail has no driver to hurt)
    loss = day(-s.rng.randint(0, 3))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("list_claims", policy_id=h.pol)
    claim = s.run("file_claim", policy_id=h.pol, vehicle_id=veh["id"], loss_date=loss, loss_type="collision",
                  description=f"{desc}; injuries: {hurt}", driver_id=drv["id"], injuries=True)
    best = _best(s.run("find_adjusters", state=state, specialty="injury"))
    s.run("assign_adjuster", claim_id=claim["claim_id"], adjuster_id=best["adjuster_id"])
    t = s.run("create_ticket", policyholder_id=h.id, subject=f"Injury claim {claim['claim_id']}", category="claim",
              policy_id=h.pol, claim_id=claim["claim_id"])
    s.run("escalate_ticket", ticket_id=t["ticket_id"], reason="Claim involves injuries")
    collision_adj = _best(s.peek("find_adjusters", state=state, specialty="collision"))
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Stressed; wants to know someone senior is on it."),
            goal=f"Report the accident of {loss} with the {h.car(veh)} in which someone was hurt, and get it handled.",
            first_message=f"I need to report an accident from {spoken(loss)}: {said} in our {veh['make']} "
                          f"{veh['model']}, and {hurt}. {_who_drove(drv)}. I'm {h.email}.",
            facts={**h.identity, "loss_date": loss, "vehicle": h.car(veh), "incident": said,
                   "driver": f"{drv['first_name']} {drv['last_name']}", "injuries": hurt},
            wants=["claim", "adjuster", "ticket", "escalate", "supervisor", best["name"]], declines=[collision_adj["name"]],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I've filed claim {claim['claim_id']} (collision with injuries, loss date {loss}) and assigned "
               f"injury adjuster {best['name']} ({best['phone']}). I also opened ticket {t['ticket_id']} for a "
               "supervisor, who will contact you within one business day."),
        assertions=[says(fact(claim["claim_id"], WHY_CLAIM_ID), fact(best["name"], WHY_ADJUSTER),
                         fact(best["phone"], WHY_ADJUSTER),
                         fact("supervisor", "policy (Support tickets, Escalate): tell the caller a supervisor will "
                                            "contact them within one business day", "manager", "senior agent",
                              "senior adjuster", "team lead", "escalated", "escalate", "escalation"), scope="any"),
                    *asked_done(s, names={"file": [claim["claim_id"]], claim["claim_id"]: [best["name"]]}),
                    *said_as_new(*(f"${d:,}" for d in (250, 500, 1000, 2000) if d != claim["deductible"]),
                                 new=("deductible", "you pay", "you'll pay", "out of pocket"),
                                 old=("comprehensive", "collision coverage", "not", "instead of", "maximum", "at most",
                                      "up to", "lienholder", "liability", "medical"),
                                 why="the claim's deductible is the one on file: another option said as it is the wrong "
                                     "value"),
                    claim_not_denied(claim["claim_id"])],
        wrong=[replace({s.at("assign_adjuster"): call("assign_adjuster", claim_id=claim["claim_id"],
                                                      adjuster_id=collision_adj["adjuster_id"])},
                       tag="wrong_entity", note="assigns a collision adjuster although someone was hurt"),
               drop(s.at("escalate_ticket"), note="opens the ticket but does not escalate it"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="multi_step", difficulty="hard",
        skills=["verification", "claims", "fnol", "adjusters", "injury", "tickets", "escalation"],
    )


@template("waive a first late fee, then take the rest with the method the caller names, and note the ticket")
def waive_and_pay(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(last_due_days_ago=s.rng.randint(12, 27),
                    methods=[("card", s.rng.choice(["Visa", "Mastercard"])), ("bank", "Checking")])
    past = [i for i in h.invoices if i["status"] == "paid"][-1]
    s.unpay(past)
    t = s.ticket(h, subject="Late fee on my last bill", category="billing", days_ago=s.rng.randint(1, 6),
                 note="Customer says the payment reminder never arrived and asks about the late fee.")
    pm = s.rng.choice(h.methods)
    other = h.methods[1] if pm is h.methods[0] else h.methods[0]
    s.identify(h)
    s.run("get_billing_account", policy_id=h.pol)
    s.run("list_invoices", policy_id=h.pol)
    waived = s.run("waive_late_fee", invoice_id=past["id"], reason="First late fee; reminder not received")
    s.run("get_policyholder", policyholder_id=h.id)
    paid = s.run("make_payment", invoice_id=past["id"], amount=waived["new_balance"], payment_method_id=pm["id"])
    s.run("get_ticket", ticket_id=t["id"])
    s.run("add_ticket_note", ticket_id=t["id"], note=f"Late fee waived on {past['id']}; balance paid in full.")
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Never got the payment reminder."),
            goal=f"Get the late fee on the overdue bill waived, pay the rest with the {pm['label']}, and have "
                 f"ticket {t['id']} updated.",
            first_message=f"Hi, about my ticket {t['id']}: I missed a payment because the reminder never came. Could "
                          f"you waive the late fee? Then I'll pay the rest right away with my {pm['label']}. "
                          f"Email {h.email}.",
            facts={**h.identity, "ticket_id": t["id"], "pay_with": pm["label"],
                   "amount": "the overdue balance without the late fee"},
            wants=["waive", "late fee", pm["label"][-4:], "pay", "charge", "note"], declines=[other["label"][-4:]],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I've waived the {dollars(T.LATE_FEE)} late fee on invoice {past['id']} and charged "
               f"{dollars(paid['charged'])} to your {pm['label']}; the invoice is now paid. I've noted this on "
               f"ticket {t['id']}."),
        assertions=[exists("ticket_notes", ticket_id=t["id"], author="agent"),
                    says(fact("waived", "the caller asked for the late fee to be waived", "removed", "taken off",
                              "took off", "dropped", "waive", "waiving", "reversed", "forgiven", "forgave"),
                         fact(paid["charged"], "policy (Communicating): tell the caller the payment", owner=PAID_OWN,
                              rivals=PAID_RIVALS), scope="any"),
                    *asked_done(s, names={past["id"]: ["late fee"]}),
                    says_not(fact(other["label"][-4:], "", owner=[*PAID_OWN, "from", "to your", "on your", "with your",
                                                                  "using"],
                                  rivals=["not", "instead of", "rather than", "other", "also on file"]),
                             why="the caller named the method to charge: the other one said charged is the wrong "
                                 "record's value")],
        wrong=[drop(s.at("waive_late_fee"), note="takes the payment without waiving the fee (the fee stays owed)"),
               replace({s.at("make_payment"): call("make_payment", invoice_id=past["id"], amount=waived["new_balance"],
                                                   payment_method_id=other["id"])},
                       tag="wrong_entity", note="charges the other payment method"),
               drop(s.at("add_ticket_note"), note="does not note the ticket the caller mentioned")],
        kind="multi_step", difficulty="hard", skills=["verification", "billing", "late_fee", "payments", "tickets"],
    )


@template("waive a late fee, split the overdue balance into the instalments the caller chooses, note the ticket",
          test=3, train=2)
def arrangement_with_waiver(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(last_due_days_ago=s.rng.randint(3, 9))
    older, newer = [i for i in h.invoices if i["status"] == "paid"][-2:]
    s.unpay(older)
    s.unpay(newer)
    k = s.rng.choice([2, 3, 4])
    t = s.ticket(h, subject="Can't pay the full balance", category="billing", days_ago=s.rng.randint(1, 4),
                 note="Customer lost hours at work and asks about paying in parts.")
    s.identify(h)
    acct = s.run("get_billing_account", policy_id=h.pol)
    assert acct["past_due_balance"] >= 100, "an arrangement needs a past-due balance of at least $100"
    s.run("list_invoices", policy_id=h.pol)
    s.run("waive_late_fee", invoice_id=older["id"], reason="Hardship; first waiver this year")
    arr = s.run("create_payment_arrangement", policy_id=h.pol, installments=k)
    s.run("get_ticket", ticket_id=t["id"])
    s.run("add_ticket_note", ticket_id=t["id"],
          note=f"Late fee on {older['id']} waived; arrangement {arr['arrangement_id']} in {k} instalments.")
    first = arr["schedule"][0]
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Lost hours at work; wants to keep the policy active."),
            goal=f"Have the late fee waived and split the overdue balance into {k} monthly payments; update ticket "
                 f"{t['id']}.",
            first_message=f"Hi, I'm behind on two car insurance payments (ticket {t['id']}). Is there any way to waive "
                          f"the late fee and split what I owe into {k} payments? {h.email}",
            facts={**h.identity, "ticket_id": t["id"], "installments_wanted": k},
            wants=["waive", "late fee", "arrangement", f"{k} instalment", f"{k} installment", f"{k} payment", "note"],
            declines=[f"{k + 1 if k < 4 else 2} {word}" for word in ("instalment", "installment", "payment")],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I've waived the {dollars(T.LATE_FEE)} late fee on invoice {older['id']} and set up payment "
               f"arrangement {arr['arrangement_id']}: your overdue {dollars(arr['total_amount'])} is split into {k} "
               f"payments, the first {dollars(first['amount'])} due {first['due_date']}, then every 30 days. I've "
               f"noted ticket {t['id']}."),
        assertions=[exists("ticket_notes", ticket_id=t["id"], author="agent"),
                    says(fact("waived", "the caller asked for the late fee to be waived", "removed", "taken off",
                              "took off", "dropped", "waive", "waiving", "reversed", "forgiven", "forgave"),
                         # in its role; or told as a payment by its date ("you'll pay $167.35 on 2026-12-14",
                         # "split in two: $167.35 due 2026-12-14"), where a word of the balance it splits may stand
                         # in the same sentence
                         fact(first["amount"], "the caller asked to split the balance; policy: tell the payment due",
                              owner=INSTALMENT_OWN, rivals=INSTALMENT_RIVALS,
                              alternatives=[fact(first["amount"], "the payment due", near=[
                                  "due", "pay", "each", "apiece", "then", "again", "later", "x", "every", "starting",
                                  "first", first["due_date"], spoken(first["due_date"])])]),
                         fact(first["due_date"], "the caller asked to split the balance; policy: tell the new due date"),
                         scope="any"),
                    *asked_done(s, names={older["id"]: ["late fee"], h.pol: [arr["arrangement_id"]]}),
                    # the balance split, in its role: not an instalment or one invoice said as the whole of it
                    misstated(arr["total_amount"], [first["amount"], T.LATE_FEE, older["amount"], newer["amount"]],
                              owner=("overdue", "owe", "past due", "total", "balance", "behind", "altogether"),
                              rivals=("split", "in two", "first", "each", "instalment", "installment",
                                      "payment of", "payments of", "a month", "monthly", "due", "then", "later",
                                      "again", "x", "late fee", "fee of", "pay", first["due_date"]),
                              why="the balance split is the tools' total: another amount said as it is another role's "
                                  "value or made up"),
                    *(says_not(fact(f"{j} payment", "", *(f"{j} {w}" for w in ("monthly payment", "instalment",
                                                                                "installment", "monthly instalment",
                                                                                "monthly installment", "part")),
                                    owner=["split", "into", "arrangement", "plan", "in all", "total", "over"],
                                    rivals=["remaining", "more", "other", "next", "then", "further", "following",
                                            "after", "rest"]),
                               why=f"the caller chose {k} instalments: another count said is the wrong value")
                      for j in (2, 3, 4) if j != k)],
        wrong=[replace({s.at("create_payment_arrangement"): call("create_payment_arrangement", policy_id=h.pol,
                                                                 installments=k + 1 if k < 4 else 2)},
                       tag="wrong_amount", note="sets up a different number of instalments"),
               drop(s.at("waive_late_fee"), note="splits the balance without waiving the late fee first"),
               drop(s.at("add_ticket_note"), note="does not note the ticket")],
        kind="multi_step", difficulty="hard", skills=["verification", "billing", "arrangement", "late_fee", "tickets"],
    )


@template("replace a financed car and add rental coverage, both from the date the caller gives")
def replace_vehicle_bundle(s: InsuranceScene, n: int) -> TaskSpec:
    makes = s.rng.sample(base.MODELS[:28], 2)
    while makes[0][0] == makes[1][0]:
        makes = s.rng.sample(base.MODELS[:28], 2)
    h = s.household(cars=2, car_models=makes, coverages={"liability": "100/300", "collision": s.rng.choice([500, 1000]),
                                                          "comprehensive": s.rng.choice([250, 500])})
    old, keep = s.rng.sample(h.vehicles, 2)
    new = s.new_car(min_year=2025, max_year=2027)
    lender = s.rng.choice(LENDER_CHOICES)
    usage = s.rng.choice(["commute", "pleasure"])
    miles = s.rng.choice([8000, 10000, 12000, 15000])
    eff = day(s.rng.choice([0, 1, 2, 4, 7]))
    daily = s.rng.choice([30, 40, 50])
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("decode_vin", vin=new["vin"])
    s.run("quote_vehicle", policy_id=h.pol, vin=new["vin"], usage=usage, effective_date=eff, replaces_vehicle_id=old["id"])
    swap = {"vin": new["vin"], "usage": usage, "annual_mileage": miles, "effective_date": eff}
    rep = s.run("replace_vehicle", policy_id=h.pol, vehicle_id=old["id"], **swap, lienholder=lender)
    s.run("quote_coverage_change", policy_id=h.pol, coverage_type="rental_reimbursement", effective_date=eff,
          daily_limit=daily)
    ren = s.run("add_coverage", policy_id=h.pol, coverage_type="rental_reimbursement", effective_date=eff,
                daily_limit=daily)
    final = s.peek("get_policy", policy_id=h.pol)["annual_premium"]
    before = T.money(final - rep["annual_premium_change"] - ren["annual_premium_change"])
    other_daily = 50 if daily != 50 else 30
    car_words = tuple(dict.fromkeys([*model_forms(new["model"]), *model_forms(old["model"]), new["make"], old["make"],
                                     *VEHICLE_WORDS]))
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Just traded in a car at the dealership."),
            goal=f"Replace the {h.car(old)} with the new {h.car(new)} (financed by {lender}) from {eff}, and add "
                 f"rental reimbursement at ${daily}/day from the same day.",
            first_message=f"Hi! I traded in my {old['make']} {old['model']} for a new {new['make']} {new['model']}, "
                          f"financed through {lender}. VIN {new['vin']}. Please swap it on my policy from {when(eff)}; "
                          f"{'I drive to work every day' if usage == 'commute' else 'it is just for weekends and errands'}"
                          f", about {miles:,} miles a year. And from the same day, add rental car coverage at ${daily} "
                          f"a day. I'm {h.email}.",
            facts={**h.identity, "car_traded_in": h.car(old), "new_vin": new["vin"], "lienholder_loan": lender,
                   "use": "commuting to work" if usage == "commute" else "weekends and errands",
                   "annual_miles": miles, "swap_date": eff, "rental_coverage_daily_limit": daily,
                   "rental_coverage_start_date": eff},
            wants=[*model_forms(new["model"]), *model_forms(old["model"]), "replace", "swap", "rental", lender],
            declines=[*model_forms(keep["model"]), str(other_daily)],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Done. From {eff} your {h.car(new)} ({rep['vehicle_id']}, lienholder {lender}) replaces the "
               f"{h.car(old)}, and your premium goes {'up' if rep['annual_premium_change'] >= 0 else 'down'} by "
               f"{dollars(rep['annual_premium_change'])} a year. Rental reimbursement at {dollars(daily)} a day starts "
               f"the same day; the rental coverage adds {dollars(ren['annual_premium_change'])} a year."),
        assertions=[says(premium_fact(rep, WHY_PREMIUM, (before, final), subject=car_words, others=RENTAL_WORDS,
                                      directions=False),
                         premium_fact(ren, WHY_PREMIUM, (before, final), subject=RENTAL_WORDS, others=car_words,
                                      directions=False),
                         scope="any"),
                    *asked_done(s, names={old["id"]: [*model_forms(old["model"]), old["make"]],
                                    "rental_reimbursement": ["rental"]},
                                others={old["id"]: [*([] if keep["model"] == new["model"] else model_forms(keep["model"])),
                                                    *([keep["make"]] if keep["make"] not in (new["make"], old["make"])
                                                      else [])]}),
                    *said_as_new(f"${other_daily}", near=DAILY_OWN, new=(*DAILY_OWN, "rental", "at"),
                                 old=("not", "instead of", "other"),
                                 why=f"the caller chose ${daily} a day: another daily limit said as the rental "
                                     "coverage's is the wrong value")],
        wrong=[replace({s.at("replace_vehicle"): call("replace_vehicle", policy_id=h.pol, vehicle_id=keep["id"], **swap,
                                                      lienholder=lender)},
                       tag="wrong_entity", note="replaces the other car"),
               replace({s.at("replace_vehicle"): call("replace_vehicle", policy_id=h.pol, vehicle_id=old["id"], **swap)},
                       tag="missing_step", note="leaves out the lienholder the caller mentioned"),
               replace({s.at("add_coverage"): call("add_coverage", policy_id=h.pol, coverage_type="rental_reimbursement",
                                                   effective_date=eff, daily_limit=other_daily)},
                       tag="wrong_amount", note="adds rental coverage at another daily limit")],
        kind="multi_step", difficulty="hard",
        skills=["verification", "vehicles", "vin", "lienholder", "coverage", "premium"],
    )


@template("after a wedding: add a spouse, remove a child, swap a car, raise a deductible, new email, autopay",
          test=3, train=2)
def household_update(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(children=2, cars=1, methods=[("card", "Visa"), ("bank", "Checking")],
                    coverages={"liability": "100/300", "uninsured_motorist": "100/300", "collision": 500,
                               "comprehensive": 500})
    leaving, staying = h.drivers[1], h.drivers[2]
    last = h.holder["last_name"]
    pf, _ = s.person(last)
    pdob = s.dob(30, 60)
    partner = s.mvr(pf, last, pdob, h.state)
    old = h.vehicles[0]
    new = s.new_car(min_year=2021, max_year=2026)
    eff = day(s.rng.randint(2, 10))
    usage = s.rng.choice(["commute", "pleasure"])
    miles = s.rng.choice([9000, 11000, 13000])
    new_email = f"{h.first.lower()}.{last.lower()}@example.org"
    bank = h.methods[1]
    t = s.ticket(h, subject="Household changes after the wedding", category="policy_change", days_ago=2,
                 note="Customer will call to make several changes.")
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("lookup_mvr", license_number=partner["license_number"], license_state=h.state)
    s.run("quote_add_driver", policy_id=h.pol, license_number=partner["license_number"], license_state=h.state,
          effective_date=eff)
    changes = [s.run("add_driver", policy_id=h.pol, first_name=pf, last_name=last, date_of_birth=pdob,
                     license_number=partner["license_number"], license_state=h.state, relationship="spouse",
                     effective_date=eff)]
    changes.append(s.run("remove_driver", policy_id=h.pol, driver_id=leaving["id"], effective_date=eff,
                         reason="Moved out and has own insurance"))
    s.run("decode_vin", vin=new["vin"])
    s.run("quote_vehicle", policy_id=h.pol, vin=new["vin"], usage=usage, effective_date=eff, replaces_vehicle_id=old["id"])
    changes.append(s.run("replace_vehicle", policy_id=h.pol, vehicle_id=old["id"], vin=new["vin"], usage=usage,
                         annual_mileage=miles, effective_date=eff))
    s.run("quote_coverage_change", policy_id=h.pol, coverage_type="collision", effective_date=eff, deductible=1000)
    changes.append(s.run("change_coverage", policy_id=h.pol, coverage_type="collision", effective_date=eff,
                         deductible=1000))
    s.run("update_contact_info", policyholder_id=h.id, email=new_email)
    s.run("get_policyholder", policyholder_id=h.id)
    s.run("set_autopay", policy_id=h.pol, enabled=True, payment_method_id=bank["id"])
    s.run("add_ticket_note", ticket_id=t["id"], note="Added spouse, removed child, replaced vehicle, collision "
                                                      "deductible 1000, new email, autopay on checking.")
    final = s.peek("get_policy", policy_id=h.pol)["annual_premium"]
    net_annual = T.money(sum(c["annual_premium_change"] for c in changes))
    net_prorated = T.money(sum(c["prorated_change"] for c in changes))
    remove_at = s.at("remove_driver")
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Just married; wants everything updated in one call."),
            goal=(f"From {eff}: add spouse {pf} {last}, remove {leaving['first_name']} (moved out), replace the "
                  f"{h.car(old)} with the {h.car(new)}, raise the collision deductible to $1,000; also change the "
                  f"email to {new_email} and put autopay on the checking account. Ticket {t['id']}."),
            first_message=f"Hi, lots of changes after our wedding (ticket {t['id']}), all from {when(eff)}, please: "
                          f"add my spouse {pf} ({spoken(pdob)}, {h.state} licence {partner['license_number']}), take "
                          f"{leaving['first_name']} off since they moved out, swap my {old['make']} {old['model']} for "
                          f"the {new['year']} {new['make']} {new['model']} we bought (VIN {new['vin']}, paid cash, "
                          f"{'commuting' if usage == 'commute' else 'weekend use'}, ~{miles:,} miles a year), raise the "
                          f"collision deductible to $1,000, change my email to {new_email}, and set up autopay from my "
                          f"checking account. My current email is {h.email}.",
            facts={**h.identity, "ticket_id": t["id"], "effective_date": eff, "spouse_name": f"{pf} {last}",
                   "spouse_date_of_birth": pdob, "spouse_license": f"{partner['license_number']} ({h.state})",
                   "driver_moving_out": f"{leaving['first_name']} (moved out, has own insurance)",
                   "driver_staying": staying["first_name"], "car_replaced": h.car(old), "new_vin": new["vin"],
                   "use": "commuting to work" if usage == "commute" else "weekends and errands",
                   "annual_miles": miles, "lienholder_loan": "none, paid cash", "new_collision_deductible": 1000,
                   "new_email": new_email, "autopay_account": bank["label"]},
            instructions=f"{staying['first_name']} stays on the policy. Give details when asked.",
            wants=[pf, leaving["first_name"], *model_forms(new["model"]), "1000", new_email, "autopay", "checking", "note", "add",
                   "remove", "replace", "swap"],
            declines=[staying["first_name"], "2000"],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"All done, effective {eff}: {pf} is added as a driver ({changes[0]['driver_id']}), "
               f"{leaving['first_name']} is removed, your {h.car(new)} replaces the {h.car(old)} "
               f"({changes[2]['vehicle_id']}), and the collision deductible is $1,000. Your new annual premium is "
               f"{dollars(final)}. Your email is now {new_email}, autopay is on with your {bank['label']}, and I've "
               f"noted everything on ticket {t['id']}."),
        assertions=[exists("ticket_notes", ticket_id=t["id"], author="agent"),
                    says(premium_change(net_annual, net_prorated, T.money(final - net_annual), final,
                                        f"{WHY_PREMIUM} (here: their net effect, or the premium after all the changes)",
                                        rivals=("deductible",)), scope="any"),
                    wrong_direction(net_annual, WHY_PREMIUM),
                    # the child who stays may be named beside the one removed ("Kim stays on the policy")
                    *asked_done(s, names={partner["license_number"]: [pf], leaving["id"]: [leaving["first_name"]],
                                    old["id"]: [*model_forms(old["model"]), old["make"]], "collision": ["deductible"],
                                    h.id: ["email", new_email], h.pol: ["autopay"]},
                          others={leaving["id"]: [staying["id"], staying["first_name"]]}),
                    says_not(fact(h.methods[0]["label"][-4:], "", owner=[*AUTOPAY, "charge", "from", "using", "with your"],
                                  rivals=["not", "instead of", "rather than", "other"]),
                             why="autopay is on the checking account the caller named: the card said as its method is "
                                 "the wrong record's value"),
                    *said_as_new(h.email, new=CONTACT_NEW, why="the email on file before the call said as the new one"),
                    *said_as_new("$500", "$2,000", near=("deductible",), new=("deductible", *NEW_ROLE),
                                 why="the collision deductible before the change, or one not asked for, said as the "
                                     "new one")],
        wrong=[replace({remove_at: call("remove_driver", policy_id=h.pol, driver_id=staying["id"], effective_date=eff,
                                        reason="Moved out and has own insurance")},
                       tag="wrong_entity", note="removes the child who is staying"),
               replace({s.at("change_coverage"): call("change_coverage", policy_id=h.pol, coverage_type="collision",
                                                      effective_date=eff, deductible=2000)},
                       tag="wrong_amount", note="sets the collision deductible to $2,000"),
               drop(s.at("set_autopay"), note="forgets the autopay request"),
               drop(s.at("add_ticket_note"), note="does not note the ticket")],
        kind="multi_step", difficulty="hard",
        skills=["verification", "drivers", "vehicles", "coverage", "account", "autopay", "tickets"],
    )


# -- templates: underwriting approvals ---------------------------------------------------------------


def _new_driver(s: InsuranceScene, h: Household, *, young: bool, violations: int,
                accidents: int) -> tuple[dict[str, Any], str]:
    """The motor-vehicle record of a driver joining the household; returns (record, relationship)."""
    if young:
        rel = "child"
        dob = iso(TODAY - timedelta(days=s.rng.randint(16 * 365 + 30, 20 * 365 + 200)))
    else:
        rel = s.rng.choice(["spouse", "sibling", "other_household"])
        dob = s.dob(24, 55)
    first, _ = s.person(h.holder["last_name"] if rel != "other_household" else None)
    last = h.holder["last_name"] if rel != "other_household" else s.person()[1]
    return s.mvr(first, last, dob, h.state, violations=violations, accidents=accidents), rel


def _driver_facts(m: dict[str, Any], rel: str, eff: str) -> dict[str, Any]:
    """What a caller adding a driver can tell: the licence details, who they are, from when."""
    return {"driver_name": f"{m['first_name']} {m['last_name']}", "driver_date_of_birth": m["date_of_birth"],
            "driver_license_number": m["license_number"], "license_state": m["license_state"], "relationship": rel,
            "accidents_tickets_violations": f"{m['violations_3y']} violation(s) and {m['at_fault_accidents_3y']} at-fault "
                              "accident(s) in the last three years", "effective_date": eff}


@template("a young or high-risk driver added after an underwriter approves")
def driver_approval_granted(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(spouse=s.rng.random() < 0.5)
    young = n % 2 == 0
    m, rel = _new_driver(s, h, young=young, violations=0 if young else 1, accidents=0 if young else 1)
    eff = day(s.rng.choice([0, 1, 3, 5, 10]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("lookup_mvr", license_number=m["license_number"], license_state=h.state)
    s.run("quote_add_driver", policy_id=h.pol, license_number=m["license_number"], license_state=h.state,
          effective_date=eff)
    ap = s.run("request_underwriter_approval", policy_id=h.pol, request_type="add_driver",
               subject=m["license_number"], reason="Young driver" if young else "Two incidents in three years")
    res = s.run("add_driver", policy_id=h.pol, first_name=m["first_name"], last_name=m["last_name"],
                date_of_birth=m["date_of_birth"], license_number=m["license_number"], license_state=h.state,
                relationship=rel, effective_date=eff, approval_id=ap["approval_id"])
    who = REL_WORDS[rel] if rel != "child" else s.rng.choice(["my son", "my daughter"])
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Adding a family member who just started driving." if young else ""),
            goal=f"Add {m['first_name']} {m['last_name']} as a driver from {eff}.",
            first_message=f"Hi, I need to add {who} {m['first_name']} to my car insurance starting {when(eff)}. "
                          f"{m['first_name']} {m['last_name']}, born {spoken(m['date_of_birth'])}, {h.state} licence "
                          f"{m['license_number']}. I'm {h.email}.",
            facts={**h.identity, **_driver_facts(m, rel, eff)},
            instructions=None if young else "If asked, admit to one speeding ticket and one fender-bender in the last "
                                            "three years.",
            wants=[m["first_name"], "add", "underwriter", "approval"], declines=[],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"The underwriter approved it ({ap['approval_id']}), and {m['first_name']} is on your policy from "
               f"{eff} as driver {res['driver_id']}. Your annual premium goes up by "
               f"{dollars(res['annual_premium_change'])}, billed pro rata on invoice {res['billing']['invoice_id']}."),
        assertions=[*premium_checks(res, WHY_PREMIUM),
                    *asked_done(s, names={m["license_number"]: [m["first_name"], res["driver_id"]]})],
        wrong=[drop(s.at("request_underwriter_approval"), tag="skipped_approval",
                    note="adds the driver without asking an underwriter (the tool refuses: no driver added)"),
               reply(f"{m['first_name']} is added from {eff}; your premium goes up by "
                     f"{dollars(res['annual_premium_change'] / 12)} a month.", note="tells the caller the wrong amount"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="approval", difficulty="hard", skills=["verification", "drivers", "mvr", "underwriting", "premium"],
    )


@template("a driver the underwriter denies: no driver added, the decision and its reason told")
def driver_approval_denied(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household()
    young = n % 2 == 1
    m, rel = _new_driver(s, h, young=young, violations=1 if young else 2, accidents=1 if young else s.rng.choice([1, 2]))
    eff = day(s.rng.choice([0, 2, 7]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("lookup_mvr", license_number=m["license_number"], license_state=h.state)
    s.run("quote_add_driver", policy_id=h.pol, license_number=m["license_number"], license_state=h.state,
          effective_date=eff)
    ap = s.run("request_underwriter_approval", policy_id=h.pol, request_type="add_driver",
               subject=m["license_number"], reason="Driver with incidents in the last three years")
    assert ap["status"] == "denied", ap
    who = REL_WORDS[rel] if rel != "child" else "my son"
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h),
            goal=f"Add {m['first_name']} {m['last_name']} as a driver from {eff}.",
            first_message=f"I'd like to add {who} {m['first_name']} {m['last_name']} to my policy from {when(eff)}. "
                          f"Born {spoken(m['date_of_birth'])}, {h.state} licence {m['license_number']}. Email {h.email}.",
            facts={**h.identity, **_driver_facts(m, rel, eff)},
            instructions="If the request is denied, accept it and ask nothing further.",
            wants=[m["first_name"], "underwriter", "approval"], declines=[],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I asked an underwriter, and the request was denied ({ap['approval_id']}) because of "
               f"{m['first_name']}'s driving record over the last three years. {m['first_name']} is not on the "
               "policy; nothing has changed."),
        assertions=[absent("drivers", license_number=m["license_number"]),
                    says(fact(DENIED[0], WHY_DECISION, *DENIED[1:], *CANT_ADD),
                         fact("driving record", f"{WHY_DECISION} (the violations and at-fault accidents on the record)",
                              "record", "accident", "violation", "speeding", "driving history", "incident", "mvr",
                              "at fault", "ticket", "citation", "infraction", "crash", "fender bender", "claims history",
                              "collision", *(("under 21", "too young", "young driver", "age") if young else ()))),
                    refused("add", m["license_number"], m["first_name"], "driver", "policy", "him", "her", "them",
                            others=ADD_ASIDES, already=ADD_ASIDES),
                    says_not(fact(ON_POLICY_CLAIM[0], "", *ON_POLICY_CLAIM[1:],
                                  near=[m["first_name"], "driver", "policy", "he", "she", "they"]),
                             why="the underwriter denied it: a reply saying the driver is on the policy claims what was "
                                 "refused")],
        wrong=[drop(s.at("request_underwriter_approval"), note="tells the caller no without asking an underwriter"),
               append(call("create_ticket", policyholder_id=h.id, subject="Driver add denied", category="underwriting",
                           policy_id=h.pol), note="opens a ticket nobody needs"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="approval", difficulty="medium", skills=["verification", "drivers", "mvr", "underwriting", "refusal"],
    )


@template("a high-value or 25-year-old vehicle added after an underwriter approves")
def vehicle_approval_granted(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household()
    if n % 2 == 0:
        make, model, body, price = s.rng.choice(LUXURY)
        car = s.vin_record(make, model, body, 2026, price)
        why = "high-value vehicle"
    else:
        make, model, body, year, value = s.rng.choice(CLASSIC_OK)
        car = s.vin_record(make, model, body, year, value)
        why = "vehicle 25+ years old"
    usage = s.rng.choice(["pleasure", "commute"])
    miles = s.rng.choice([3000, 5000, 8000, 12000])
    eff = day(s.rng.choice([0, 1, 4, 8]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("decode_vin", vin=car["vin"])
    s.run("quote_vehicle", policy_id=h.pol, vin=car["vin"], usage=usage, effective_date=eff)
    ap = s.run("request_underwriter_approval", policy_id=h.pol, request_type="add_vehicle", subject=car["vin"],
               reason=why)
    res = s.run("add_vehicle", policy_id=h.pol, vin=car["vin"], usage=usage, annual_mileage=miles, effective_date=eff,
                approval_id=ap["approval_id"])
    added = {"policy_id": h.pol, "vin": car["vin"], "annual_mileage": miles, "effective_date": eff}
    use = "driven to work" if usage == "commute" else "weekend drives only"
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Proud of the new car."),
            goal=f"Add the {h.car(car)} to the policy from {eff}.",
            first_message=f"Hi, I just bought a {car['year']} {make} {model} and want it on my policy from "
                          f"{when(eff)}. VIN {car['vin']}, {use}, maybe {miles:,} miles a year, no loan on it. "
                          f"I'm {h.email}.",
            facts={**h.identity, "vin": car["vin"], "use": use,
                   "annual_miles": miles, "effective_date": eff, "lienholder_loan": "none, no loan"},
            wants=[*model_forms(model), "add", "underwriter", "approval"], declines=[],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Because it's a {why}, an underwriter had to approve it, and they did ({ap['approval_id']}). Your "
               f"{h.car(car)} is covered from {eff} ({res['vehicle_id']}): {dollars(res['annual_premium_change'])} a "
               "year more, billed pro rata for the rest of this term."),
        assertions=[*premium_checks(res, WHY_PREMIUM),
                    *asked_done(s, names={car["vin"]: [*model_forms(model), make, res["vehicle_id"]]})],
        wrong=[replace({s.at("request_underwriter_approval"): call("add_vehicle", usage=usage, **added)},
                       tag="skipped_approval", note="adds the vehicle without an underwriter's approval"),
               replace({s.at("add_vehicle"): call("add_vehicle", usage="commute" if usage == "pleasure" else "pleasure",
                                                  approval_id=ap["approval_id"], **added)},
                       tag="wrong_amount", note="records the wrong usage (rated differently)"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="approval", difficulty="hard", skills=["verification", "vehicles", "vin", "underwriting", "premium"],
    )


@template("an exotic or pre-1995 vehicle the underwriter denies: not added, the decision and its reason told")
def vehicle_approval_denied(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household()
    if n % 2 == 0:
        make, model, body, price = s.rng.choice(EXOTIC)
        car = s.vin_record(make, model, body, 2026, price)
        reason = ("value", *VEHICLE_OUTSIDE, "valued", "worth", "150,000", "80,000", dollars(price), "expensive", "price",
                  "priced", "pricey", "costly", "valuable", "high value", "exotic", "luxury")
        because = "because of its value"
    else:
        make, model, body, year, value = s.rng.choice(CLASSIC_OLD)
        car = s.vin_record(make, model, body, year, value)
        reason = ("too old", *VEHICLE_OUTSIDE, "age", "aged", "model year", "1995", "2001", "25 year", "classic", "antique",
                  "vintage", "years old", "year old", "older than", "older vehicle", "older car", "old car",
                  "old vehicle", "so old")
        because = "because it is too old"
    eff = day(s.rng.choice([0, 2, 6]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("decode_vin", vin=car["vin"])
    s.run("quote_vehicle", policy_id=h.pol, vin=car["vin"], usage="pleasure", effective_date=eff)
    ap = s.run("request_underwriter_approval", policy_id=h.pol, request_type="add_vehicle", subject=car["vin"],
               reason="Vehicle outside standard guidelines")
    assert ap["status"] == "denied", ap
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "A car enthusiast."),
            goal=f"Add the {h.car(car)} to the policy from {eff}.",
            first_message=f"Hello, I'd like to add my {car['year']} {make} {model} to my policy from {when(eff)}. "
                          f"VIN {car['vin']}. It's only for weekend drives, about 2,000 miles a year. Email {h.email}.",
            facts={**h.identity, "vin": car["vin"], "use": "weekend drives only", "annual_miles": 2000,
                   "effective_date": eff, "lienholder_loan": "none"},
            instructions="If it cannot be added, accept the answer.",
            wants=[*model_forms(model), "underwriter", "approval"], declines=[],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"A vehicle like this needs an underwriter's approval, and the underwriter denied it "
               f"({ap['approval_id']}) {because}. The {h.car(car)} is not on your policy."),
        assertions=[absent("vehicles", vin=car["vin"]),
                    says(fact(DENIED[0], WHY_DECISION, *DENIED[1:], *CANT_ADD), fact(reason[0], WHY_DECISION, *reason[1:])),
                    refused("add", car["vin"], *model_forms(model), make, "car", "vehicle", "policy", "it",
                            others=ADD_ASIDES, already=ADD_ASIDES),
                    says_not(fact(ON_POLICY_CLAIM[0], "", *ON_POLICY_CLAIM[1:]),
                             why="the underwriter denied it: a reply saying the car is on the policy claims what was "
                                 "refused")],
        wrong=[append(call("add_vehicle", policy_id=h.pol, vin=car["vin"], usage="pleasure", annual_mileage=2000,
                           effective_date=eff), note="adds the vehicle anyway"),
               drop(s.at("request_underwriter_approval"), note="declines without asking an underwriter")],
        kind="approval", difficulty="medium", skills=["verification", "vehicles", "vin", "underwriting", "refusal"],
    )


@template("500/1000 liability limits: raised when the underwriter approves, kept (with the reason) when denied",
          test=3, train=2)
def liability_limit_approval(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(coverages={"liability": "250/500", "uninsured_motorist": "100/300", "collision": 500,
                               "comprehensive": 500}, eff_days_ago=s.rng.randint(120, 300))
    approved = n % 2 == 0
    if not approved:
        s.claim(h, status="closed", loss_type="collision", vehicle=h.vehicles[0], driver=h.drivers[0],
                loss_days_ago=h.days_in_force - 30, adjuster=s.adjuster(h.state, "collision"), at_fault=True, paid=3200.0)
    eff = day(s.rng.choice([0, 1, 5]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("quote_coverage_change", policy_id=h.pol, coverage_type="liability", effective_date=eff, limit_code="500/1000")
    ap = s.run("request_underwriter_approval", policy_id=h.pol, request_type="liability_limit", subject="500/1000",
               reason="Customer wants higher liability limits")
    raise_limits = {"policy_id": h.pol, "coverage_type": "liability", "effective_date": eff}
    if approved:
        res = s.run("change_coverage", **raise_limits, limit_code="500/1000", approval_id=ap["approval_id"])
        answer = (f"An underwriter approved the higher limits ({ap['approval_id']}). Your liability limits are "
                  f"500/1000 from {eff}: {dollars(res['annual_premium_change'])} more a year, billed pro rata for the "
                  "rest of this term.")
        checks = [*premium_checks(res, WHY_PREMIUM),
                  *asked_done(s, names={"liability": ["limits", "500/1000"]}),
                  *said_as_new("250/500", "100/300", near=("limit", "liability"),
                               old=tuple(w for w in OLD_ROLE if w != "limit"),  # "limit" is this value's own noun
                               why="the limits before the change, or the uninsured-motorist ones, said as the new "
                                   "liability limits"),
                  undecided_said(),
                  says_not(fact("denied", "", "declined", "rejected", "turned down", "turned it down", "not approved",
                                "not approve", "refused", "said no", "denial", near=["underwriter", "request", "limit",
                                                                                   "increase", "it", "approval"]),
                           why="the underwriter approved the higher limits: a reply saying they were denied says what "
                               "did not happen")]
        wrong = [replace({s.at("request_underwriter_approval"): call("change_coverage", **raise_limits,
                                                                     limit_code="500/1000")},
                         tag="skipped_approval", note="raises the limits without asking an underwriter"),
                 replace({s.at("change_coverage"): call("change_coverage", **raise_limits, limit_code="100/300")},
                         tag="wrong_amount", note="sets other limits than asked"),
                 drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)]
    else:
        answer = (f"Limits of 500/1000 need an underwriter's approval, and it was denied ({ap['approval_id']}) because "
                  "your household had an at-fault claim in the last three years. Your liability limits are still 250/500.")
        checks = [unchanged("coverages", f"{h.pol}/liability", "limit_code"),
                  refused("raise", "liability", "limits", "500/1000"), undecided_said(),
                  says(fact(DENIED[0], WHY_DECISION, *DENIED[1:], *CANT_RAISE),
                       fact("at fault", f"{WHY_DECISION} (an at-fault claim in the last three years)", "claims history",
                            "claim history", "accident", "you caused", "prior claim", "previous claim", "past claim",
                            "recent claim")),
                  says_not(fact("limits are now 500/1000", "", "limits are 500/1000", "now 500/1000", "now at 500/1000",
                                *RAISED_CLAIM, near=["limit", "liability", "500/1000", "coverage"]),
                           why="the underwriter denied the higher limits: a reply saying they were raised claims what "
                               "was refused")]
        wrong = [append(call("change_coverage", **raise_limits, limit_code="500/1000"), note="raises the limits anyway"),
                 drop(s.at("request_underwriter_approval"), note="declines without asking an underwriter")]
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Recently bought a house and wants more protection."),
            goal=f"Raise liability limits to 500/1000 from {eff} if possible.",
            first_message=f"Hi, I just bought a house and want the highest liability limits you offer, 500/1000, "
                          f"starting {when(eff)}. Can you do that? {h.email}",
            facts={**h.identity, "liability_limits_wanted": "500/1000", "effective_date": eff},
            instructions="If it can't be done, keep the current limits; do not ask for anything else.",
            wants=["500/1000", "liability", "underwriter", "approval"], declines=["100/300"],
        ),
        patch=s.patch(), golden=s.golden, reply=answer, assertions=checks, wrong=wrong,
        kind="approval", difficulty="medium", skills=["verification", "coverage", "underwriting", "claims_history"],
    )


# -- templates: refusals -------------------------------------------------------------------------------


@template("removing a driver who is on an open claim is declined, with the reason")
def remove_driver_open_claim(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(spouse=n % 2 == 0, children=0 if n % 2 == 0 else 1, eff_days_ago=s.rng.randint(90, 300))
    d = h.drivers[1]
    adj = s.adjuster(h.state, "collision")
    c = s.claim(h, status="assigned", loss_type="collision", vehicle=h.vehicles[0], driver=d,
                loss_days_ago=s.rng.randint(6, 40), adjuster=adj)
    eff = day(s.rng.choice([0, 1, 5]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("list_claims", policy_id=h.pol)
    who = "my spouse" if d["relationship"] == "spouse" else "my son"
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h),
            goal=f"Remove {d['first_name']} from the policy from {eff} ({d['first_name']} got their own insurance).",
            first_message=f"Hi, please take {who} {d['first_name']} off my policy from {when(eff)}; they have their "
                          f"own insurance now. {h.email}",
            facts={**h.identity, "driver": f"{d['first_name']} {d['last_name']}", "effective_date": eff,
                   "reason": "they have their own insurance now"},
            instructions="If the agent can't do it yet, accept and say you'll call back later.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I can't remove {d['first_name']} yet: they are the driver on claim {c['id']}, which is still open "
               f"with adjuster {adj['first_name']} {adj['last_name']}. Once it's settled, we can take them off the "
               "policy."),
        assertions=[unchanged("drivers", d["id"], "status"),
                    says(reason("an open claim", f"{WHY_DECLINE}: a driver on an open claim cannot be removed until it is "
                                               "closed", *claim_not_closed(c["id"], "collision", bare=True))),
                    refused("remove", d["id"], d["first_name"]),
                    says_not(fact(f"removed {d['first_name']}", "", f"took {d['first_name']} off",
                                  f"taken {d['first_name']} off", f"{d['first_name']} is off", *REMOVED_CLAIM,
                                  near=[d["first_name"], "driver", "policy", "he", "she", "they", "them"]),
                             why="the driver stays on the policy while the claim is open: a reply saying they were removed "
                                 "claims what was refused")],
        wrong=[append(call("remove_driver", policy_id=h.pol, driver_id=d["id"], effective_date=eff,
                           reason="Has own insurance"), note="removes the driver anyway"),
               reply(f"Done, {d['first_name']} is off your policy from {eff}.", note="says it is done"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="refusal", difficulty="medium", skills=["verification", "drivers", "claims", "claim_rules"],
    )


def substitute_not_made(raise_it: bool) -> list[dict[str, Any]]:
    """No other deductible in place of the refused change: "I've set your deductible to $1,000
    instead", "I've updated it to the maximum allowed" claim a write nobody asked for and nobody made.
    "set" is bound to the amounts ("your deductible is set at $500" states the current one, which
    was set before the call); "change" and its synonyms, and for a refused removal "raise", to the
    deductible itself (nothing was changed at all)."""
    why = "the lienholder rule refused the change and the caller asked for nothing else: no deductible was changed"
    amounts = ("1,000", "$1,000", "1000", "maximum", "max", "highest", "most allowed", "limit")
    out = [outcome("set", "not_done", why, record=(*amounts, "2,000"),
                   others=("500", "$500"), already=("500", "$500")),
           outcome("change", "not_done", why, record=("deductible", "collision", "comprehensive", *amounts),
                   nouns=("changes",))]
    if not raise_it:
        out.append(outcome("raise", "not_done", why, record=("deductible", "comprehensive", *amounts),
                           nouns=("increase",)))
    # the substitute said as the new state, with no verb to bind: "your deductible is now $1,000"
    out.append(says_not(fact("now $1,000", "", "now at $1,000", "now set to $1,000", "now set at $1,000",
                             "now be $1,000", near=["deductible", "collision", "comprehensive", "it"]), why=why))
    return out


@template("a $2,000 deductible or dropping comprehensive on a financed car is declined (lienholder rule)")
def lienholder_deductible(s: InsuranceScene, n: int) -> TaskSpec:
    lender = s.rng.choice(LENDER_CHOICES)
    cars = s.rng.choice([1, 2])
    h = s.household(cars=cars, lien=[lender] + [None] * (cars - 1), coverages={
        "liability": "100/300", "collision": 500, "comprehensive": 500})
    raise_it = n % 2 == 0
    eff = day(s.rng.choice([0, 3]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    veh = h.vehicles[0]
    if raise_it:
        ask = f"raise my collision deductible to $2,000 starting {when(eff)}"
        goal = f"Raise the collision deductible to $2,000 from {eff}."
        rule = "collision and comprehensive, each with a deductible of at most $1,000"
        wrong = [append(call("change_coverage", policy_id=h.pol, coverage_type="collision", effective_date=eff,
                             deductible=2000), note="raises the deductible anyway"),
                 append(call("change_coverage", policy_id=h.pol, coverage_type="collision", effective_date=eff,
                             deductible=1000), note="substitutes a $1,000 deductible the caller did not ask for")]
    else:
        ask = f"drop comprehensive coverage starting {when(eff)}, I never use it"
        goal = f"Remove comprehensive coverage from {eff}."
        rule = "both collision and comprehensive coverage"
        wrong = [append(call("remove_coverage", policy_id=h.pol, coverage_type="comprehensive", effective_date=eff,
                             reason="Never used"), note="removes comprehensive anyway"),
                 append(call("change_coverage", policy_id=h.pol, coverage_type="comprehensive", effective_date=eff,
                             deductible=1000), note="raises the comprehensive deductible instead, unasked")]
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Trying to cut costs."),
            goal=goal,
            first_message=f"Hi, money's tight, so please {ask}. Email {h.email}.",
            facts={**h.identity, "requested_change": goal, "effective_date": eff,
                   "car_loan": f"{veh['make']} {veh['model']} financed by {lender}"},
            instructions="If the agent refuses, accept it; do not ask for any other change.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=f"I can't do that: while a vehicle on your policy has a lienholder, the policy must keep {rule}.",
        assertions=[unchanged("coverages", f"{h.pol}/collision"), unchanged("coverages", f"{h.pol}/comprehensive"),
                    # (audit 28: a refusal citing a lienholder nobody read is right by luck)
                    called("get_policy", why="policy, Coverages: read the policy's vehicles and their lienholders "
                           "(get_policy) before refusing a change on the lienholder rule", policy_id=h.pol),
                    says(fact("lienholder", f"{WHY_DECLINE} (the lienholder rule)", "lien", "financed", "finance",
                              "loan", "lender", "leased", "lease", lender)),
                    *((refused("raise", "collision", "deductible", "2,000", nouns=("increase",)),) if raise_it else
                      (refused("drop", "comprehensive"), refused("remove", "comprehensive"))),
                    *substitute_not_made(raise_it),
                    says_not(fact("deductible is now $2,000", "", "deductible is $2,000", "now $2,000",
                                  *RAISED_CLAIM, near=["deductible", "collision", "2,000"]) if raise_it else
                             fact("removed comprehensive", "", "comprehensive is off", "no comprehensive from",
                                  *REMOVED_CLAIM, near=["comprehensive", "coverage"]),
                             why="the lienholder rule refuses the change: a reply saying it was made claims what was "
                                 "refused")],
        wrong=[*wrong, drop(s.at("verify_identity"), note=UNVERIFIED_NOTE),
               drop(s.at("get_policy"), note="refuses on a lienholder it never read")],
        kind="refusal", difficulty="medium", skills=["verification", "coverage", "lienholder"],
    )


@template("a car the caller will use for rideshare or delivery is not added, with the reason")
def rideshare_vehicle(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household()
    car = s.new_car(min_year=2020, max_year=2026)
    gig = s.rng.choice(["Uber", "Lyft", "DoorDash", "Instacart"])
    eff = day(s.rng.choice([0, 1, 3]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("decode_vin", vin=car["vin"])
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, f"Starting to drive for {gig} to earn extra money."),
            goal=f"Add the {h.car(car)} (to be used for {gig}) to the policy from {eff}.",
            first_message=f"Hi, I bought a {car['year']} {car['make']} {car['model']} (VIN {car['vin']}) that I'll "
                          f"mostly use for driving for {gig}, about 25,000 miles a year. Please add it from "
                          f"{when(eff)}. I'm {h.email}.",
            facts={**h.identity, "vin": car["vin"], "use": f"mostly driving for {gig}", "annual_miles": 25000,
                   "effective_date": eff, "lienholder_loan": "none"},
            instructions=f"Be honest that the car is mainly for {gig}. If refused, accept.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=("I'm sorry, I can't add it: our policies don't cover a car used for rideshare work. You'd need a "
               "policy made for that kind of driving."),
        assertions=[absent("vehicles", vin=car["vin"]),
                    says(fact("rideshare", f"{WHY_DECLINE} (personal auto policies do not cover rideshare, delivery or "
                                           "other paid transport)", *PAID_USE, gig, may_be_negated=True)),
                    # "I've added it", "added to your policy" (the outcome); "I've put it on your policy" (the phrases)
                    refused("add", car["vin"], *model_forms(car["model"]), car["make"], "car", "vehicle", "policy", "it",
                            others=ADD_ASIDES, already=ADD_ASIDES),
                    says_not(fact(ON_POLICY_CLAIM[0], "", *ON_POLICY_CLAIM[1:]),
                             why="a rideshare car is not added: a reply saying it is on the policy claims what was refused")],
        wrong=[append(call("add_vehicle", policy_id=h.pol, vin=car["vin"], usage="commute", annual_mileage=25000,
                           effective_date=eff), note="adds it as a commuting car"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="refusal", difficulty="easy", skills=["verification", "vehicles", "rideshare"],
    )


@template("a ticket linked to an open claim stays open: noted and explained instead of closed")
def close_ticket_open_claim(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(eff_days_ago=s.rng.randint(60, 300))
    spec = s.rng.choice(["collision", "comprehensive"])
    adj = s.adjuster(h.state, spec)
    c = s.claim(h, status="assigned", loss_type=spec, vehicle=h.vehicles[0],
                driver=h.drivers[0] if spec == "collision" else None, loss_days_ago=s.rng.randint(8, 40), adjuster=adj)
    t = s.ticket(h, subject=f"Questions about claim {c['id']}", category="claim", claim=c, days_ago=s.rng.randint(2, 7))
    s.identify(h)
    s.run("get_ticket", ticket_id=t["id"])
    s.run("get_claim", claim_id=c["id"])
    s.run("add_ticket_note", ticket_id=t["id"],
          note=f"Customer asked to close the ticket; kept open because claim {c['id']} is still open.")
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Likes a tidy inbox."),
            goal=f"Close ticket {t['id']}; the questions were answered.",
            first_message=f"Hi, you can close my ticket {t['id']}, I got my questions answered. Email {h.email}.",
            facts={**h.identity, "ticket_id": t["id"]},
            instructions="If the agent explains why it must stay open, accept.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I can't close ticket {t['id']} yet: it's linked to claim {c['id']}, which is still open with your "
               "adjuster. I've noted on the ticket that you asked to close it; it will be closed along with the claim."),
        assertions=[unchanged("tickets", t["id"], "status"), exists("ticket_notes", ticket_id=t["id"], author="agent"),
                    says(reason("an open claim", f"{WHY_DECLINE}: a ticket stays open while its claim is open",
                              *claim_not_closed(c["id"], spec, bare=False), *ticket_waits_for_claim(c["id"])),
                         scope="any"),
                    # closed later, with the claim: "it will be closed along with the claim" is true, "I've closed
                    # it" is not (the outcome); a status set to closed is no participle the outcome reads as one
                    refused("close", t["id"], "ticket", handed_on=True),
                    says_not(fact("status to closed", "", "set to closed", "changed to closed", "moved to closed",
                                  "updated to closed", "switched to closed"),
                             why="the ticket stays open with its claim: a reply saying it was closed claims what was "
                                 "refused")],
        wrong=[append(call("update_ticket_status", ticket_id=t["id"], status="closed"), note="closes the ticket anyway"),
               drop(s.at("add_ticket_note"), note="does not note the request on the ticket")],
        kind="refusal", difficulty="medium", skills=["verification", "tickets", "claims", "claim_rules"],
    )


@template("a second late-fee waiver within 12 months is declined, with the rule")
def waiver_already_used(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(last_due_days_ago=s.rng.randint(12, 27))
    paid = [i for i in h.invoices if i["status"] == "paid"]
    s.unpay(paid[-1])
    paid[0].update(late_fee=T.LATE_FEE, late_fee_waived=True)
    s.identify(h)
    acct = s.run("get_billing_account", policy_id=h.pol)
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h),
            goal="Have the late fee on the overdue instalment waived.",
            first_message=f"Hi, I was a little late paying this month. Could you take off the late fee? {h.email}",
            facts={**h.identity, "invoice": f"the instalment that was due {paid[-1]['due_date']}"},
            instructions="If the fee cannot be waived, say you'll pay later this week; do not pay now.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I'm sorry, I can't waive it: we waive at most one late fee per policy in any 12 months, and one was "
               f"waived on invoice {paid[0]['id']} (due {paid[0]['due_date']}). Your overdue balance is "
               f"{dollars(acct['past_due_balance'])}."),
        assertions=[unchanged("invoices", paid[-1]["id"], "late_fee_waived"),
                    # (audit 28: a refusal citing an earlier waiver nobody read is right by luck)
                    called("get_billing_account", why="policy, Billing: read the invoices (get_billing_account) before "
                           "refusing a waiver on the 12-month rule", policy_id=h.pol),
                    # the rule is the 12-month window or the waiver already given (its invoice, its date): "only
                    # once per policy" or "only with autopay" names no such rule; nor does a bare "already waived",
                    # which a sloppy reply says of the overdue invoice itself (see `current` below)
                    says(fact(f"waived on {paid[0]['id']}", f"{WHY_DECLINE} (one late-fee waiver per policy in any 12 "
                              "months)",
                              "12 month", "a year", "per year", "each year", "every year", "rolling year", "policy year",
                              "any year", "past year", "last year", "within a year", "in a year", "annual", "yearly",
                              "previously waived", "waived before", "already used", "waived one", "waived a late fee",
                              "waived a fee", "had a late fee waived", "had one waived", "had a fee waived",
                              "already had one", "already had a late fee", "already had a waiver", "received a waiver",
                              "received one", "got a waiver", "got one", "used your waiver", "used the waiver",
                              "waiver was used", "waiver has been used", "waiver has already been used",
                              "a late fee was already waived", "a late fee has already been waived",
                              "a fee was already waived", "a fee has already been waived", "one was already waived",
                              "one has already been waived", "one was waived", "one has been waived",
                              "a late fee was waived", "a late fee has been waived", "took off a late fee",
                              "had one on", "earlier waiver", "previous waiver", "prior waiver", "earlier this year",
                              paid[0]["id"], paid[0]["due_date"])),
                    # the overdue invoice said to have been waived already ("your current invoice was already
                    # waived"): the earlier invoice's waiver told as this one's, whatever the reason says
                    says_not(fact("waived", "", "been waived", "waiver was applied", "waiver applied",
                                  owner=[paid[-1]["id"], paid[-1]["due_date"], _month(paid[-1]["due_date"]),
                                         "this invoice", "this month", "this one", "this fee", "this late fee",
                                         "current", "overdue", "latest", "this bill", "today"],
                                  rivals=[paid[0]["id"], paid[0]["due_date"], _month(paid[0]["due_date"]), "earlier",
                                          "previous", "prior", "last time", "before", "already had", "had one",
                                          "had a", "one was", "one has", "a late fee", "a fee", "one late fee",
                                          "another", "other", "in the past", "12 month", "year", "once", "one per"]),
                             why="the waiver was used on an earlier invoice: the overdue invoice said to be waived "
                                 "already is the earlier record's state said of this one"),
                    # the overdue balance (the instalment and its late fee) in its role, not one step off it
                    misstated([acct["past_due_balance"], acct["total_balance"]],
                              [T.LATE_FEE, paid[-1]["amount"],
                               (acct.get("next_due") or {}).get("balance", 0)],
                              owner=("overdue", "past due", "owe", "behind", "late payment", "outstanding", "unpaid",
                                     "balance due", "missed", "due now", "right now", "to pay"),
                              # (a fee is no balance: "the $15 fee stays, so the past-due balance is $196.17")
                              rivals=("next", "upcoming", "total balance", "in total", "altogether", "late fee",
                                      "fee", "instalment of", "installment of", "december", "january"),
                              why="the overdue balance is the tools' figure: another amount said as it is made up or "
                                  "another role's value"),
                    # the fee on the overdue invoice said waived or waiting; the earlier waiver is another record
                    # ("one was waived on INV-5003"), so a clause naming neither counts for neither
                    refused("waive", paid[-1]["id"], paid[-1]["due_date"], "the late fee", "your late fee",
                            "this late fee", "this fee", "this one", "this invoice", "this month", "overdue", "current",
                            others=(paid[0]["id"], paid[0]["due_date"], "earlier", "previous", "prior", "already", "before",
                                    "last", "a late fee", "one late fee"),
                            already=(paid[0]["id"], paid[0]["due_date"], "a late fee", "one late fee")),
                    # first-person and present: "we have waived one before" tells the earlier waiver, no claim
                    says_not(fact("waived your late fee", "", *(f"{i} {w}" for i in ("i have waived", "i waived")
                                                                 for w in ("the", "your", "this", "it", "that")),
                                  "fee is waived", "fee is now waived", "fee has now been waived",
                                  "waived the late fee on " + paid[-1]["id"], "waived the late fee for this",
                                  "waived this", "waived it", "i have removed the late fee", "i removed the late fee",
                                  "i have taken off the late fee", "i took off the late fee", "fee has been removed",
                                  "fee is removed", "fee is now removed"),
                             why="a second waiver within 12 months is refused: a reply saying the fee was waived claims "
                                 "what was refused")],
        wrong=[append(call("waive_late_fee", invoice_id=paid[-1]["id"], reason="Customer asked"),
                      note="waives the fee anyway"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE),
               drop(s.at("get_billing_account"), note="refuses on an earlier waiver it never read")],
        kind="refusal", difficulty="medium", skills=["verification", "billing", "late_fee", "policy_limits"],
    )


@template("no claim filed for a loss the policy has no collision or comprehensive coverage for")
def claim_without_coverage(s: InsuranceScene, n: int) -> TaskSpec:
    missing = "collision" if n % 2 == 0 else "comprehensive"
    covs: dict[str, Any] = {"liability": "50/100", "collision": 1000, "comprehensive": 500}
    del covs[missing]
    h = s.household(coverages=covs, eff_days_ago=s.rng.randint(60, 300))
    loss = day(-s.rng.randint(1, 5))
    if missing == "collision":
        said = s.rng.choice(["I clipped a light pole pulling out of a parking spot",
                             "I slid into a ditch and dented the side"])
    else:
        said = s.rng.choice(["a hailstorm dented my roof and hood", "someone smashed my side window overnight"])
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Hopes insurance will pay for the repair."),
            goal=f"File a claim for the damage of {loss} to the {h.car(h.vehicles[0])}.",
            first_message=f"Hi, on {spoken(loss)} {said}. I'd like to file a claim for my {h.vehicles[0]['make']}. "
                          f"Nobody was hurt. {h.email}",
            facts={**h.identity, "loss_date": loss, "vehicle": h.car(h.vehicles[0]), "incident": said,
                   "injuries": "none", "driver": h.name if missing == "collision" else "nobody, the car was parked"},
            instructions="If told it isn't covered, accept it.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I'm sorry: your policy {h.pol} doesn't include {missing} coverage, which is what pays for this kind "
               "of damage to your own car, so I can't file a claim for it."),
        assertions=[absent("claims", policy_id=h.pol),
                    # (a refusal on coverage nobody read is right by luck)
                    called("get_policy", why="policy, Claims: read the policy's coverages (get_policy) before saying "
                           "a loss is or is not covered", policy_id=h.pol),
                    says(fact(missing, f"{WHY_DECLINE}: the loss is not covered without {missing} coverage",
                              *NOT_COVERED, may_be_negated=True)),
                    # "filed", "your claim has been processed", "your claim is pending" (the outcome); opened or
                    # submitted (the phrases)
                    refused("file", "your claim", nouns=("claim",)),
                    says_not(fact("opened a claim", "", "claim has been opened", "claim is open", "claim is now open",
                                  "have submitted", "has been submitted", "submitted your claim", "claim is submitted"),
                             why="no claim is filed without the coverage: a reply saying one was claims what was refused")],
        wrong=[append(call("file_claim", policy_id=h.pol, vehicle_id=h.vehicles[0]["id"], loss_date=loss,
                           loss_type=missing, description=said, driver_id=h.drivers[0]["id"]),
                      note="files the claim anyway"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE),
               drop(s.at("get_policy"), note="refuses on coverage it never read")],
        kind="refusal", difficulty="medium", skills=["verification", "claims", "coverage"],
    )


@template("a third billing extension within 12 months is declined, with the rule")
def extension_limit_reached(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(last_due_days_ago=s.rng.randint(20, 26))
    for inv in [i for i in h.invoices if i["status"] == "paid"][:2]:
        d = date.fromisoformat(inv["due_date"])
        s.add("billing_extensions", {
            "id": s.new_id("EXT"), "invoice_id": inv["id"], "policy_id": h.pol,
            "previous_due_date": iso(d - timedelta(days=8)), "new_due_date": iso(d),
            "granted_on": iso(d - timedelta(days=10)), "reason": "Paycheck timing"})
    nxt = h.next_open()
    asked = iso(date.fromisoformat(nxt["due_date"]) + timedelta(days=7))
    s.identify(h)
    s.run("get_billing_account", policy_id=h.pol)
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Has asked for extra time before."),
            goal=f"Move the payment due {nxt['due_date']} to {asked}.",
            first_message=f"Hi, can I get another week on my payment due {spoken(nxt['due_date'])}, until "
                          f"{spoken(asked)}? {h.email}",
            facts={**h.identity, "payment_due_date": nxt["due_date"], "wanted_due_date": asked},
            instructions="If refused, accept and say you'll pay on time.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I'm sorry, I can't extend it: this policy already had 2 extensions in the past year, and that's as "
               f"many as we can grant. Invoice {nxt['id']} ({dollars(nxt['amount'])}) stays due on {nxt['due_date']}."),
        assertions=[unchanged("invoices", nxt["id"], "due_date"),
                    says(reason("extension limit", f"{WHY_DECLINE} (at most 2 extensions per policy in any 12 months)",
                              *EXTENSIONS_USED)),
                    # "extended", "your extension has been granted", "pending approval" (the outcome); the date asked
                    # said as the due date, or the due date moved (the phrases)
                    refused("extend", nxt["id"], nxt["due_date"]),
                    says_not(fact(asked, "", near=["now due", "extended", "moved to", "pushed", "new due date",
                                                    "due date is now", "changed to"]),
                             fact("have moved", "", "has been moved", "have pushed", "has been pushed", "is moved",
                                  "is pushed", "granted a third", "granted another"),
                             why="a third extension is refused: a reply saying the due date moved claims what was "
                                 "refused")],
        wrong=[append(call("grant_billing_extension", invoice_id=nxt["id"], new_due_date=asked, reason="Customer asked"),
                      note="grants a third extension"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="refusal", difficulty="medium", skills=["verification", "billing", "extension", "policy_limits"],
    )


@template("on an assigned claim: the phone is updated, the loss-date correction goes to the adjuster by ticket")
def claim_change_after_assignment(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(cars=2, eff_days_ago=s.rng.randint(60, 300))
    adj = s.adjuster(h.state, "collision")
    loss_ago = s.rng.randint(6, 30)
    c = s.claim(h, status="assigned", loss_type="collision", vehicle=h.vehicles[0], driver=h.drivers[0],
                loss_days_ago=loss_ago, adjuster=adj)
    real = day(-loss_ago - s.rng.randint(1, 2))
    t = s.ticket(h, subject=f"Claim {c['id']}", category="claim", claim=c, days_ago=3) if n % 2 == 0 else None
    phone = f"{base.STATES[h.state][2]}-555-{s.rng.randint(1000, 9999)}"
    s.identify(h)
    s.run("get_claim", claim_id=c["id"])
    s.run("update_claim", claim_id=c["id"], contact_phone=phone)
    if t is None:
        tid = s.run("create_ticket", policyholder_id=h.id, subject=f"Loss date correction for {c['id']}",
                    category="claim", policy_id=h.pol, claim_id=c["id"])["ticket_id"]
    else:
        tid = t["id"]
    s.run("add_ticket_note", ticket_id=tid, note=f"Customer says the loss date was {real}, not {c['loss_date']}; "
                                                 "please review.")
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h),
            goal=f"On claim {c['id']}: change the loss date to {real} and the contact phone to {phone}.",
            first_message=f"Hi, two things on claim {c['id']}: the accident was actually on {spoken(real)}, not "
                          f"{spoken(c['loss_date'])}, and the adjuster should call me at {phone} from now on. {h.email}",
            facts={**h.identity, "claim_id": c["id"], "real_loss_date": real, "new_phone": phone},
            wants=[phone, "phone", "note", "ticket", "adjuster"], declines=[],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I've updated the contact phone on claim {c['id']} to {phone}. Because adjuster {adj['first_name']} "
               f"{adj['last_name']} is already assigned, I can't change the loss date myself; I've added your "
               f"correction to ticket {tid} for the adjuster to review."),
        assertions=[unchanged("claims", c["id"], "loss_date"), exists("ticket_notes", ticket_id=tid, author="agent"),
                    says(fact(phone, WHY_CHANGED), scope="any"),
                    says(fact("review", "policy (Claims): once an adjuster is assigned the loss date cannot change "
                                         "here; tell the caller the adjuster will review it", *ADJUSTER_REVIEWS,
                              # "a ticket with the correct date for the adjuster": the phrase names its role itself
                              alternatives=[fact("for the adjuster", "the correction left for the adjuster",
                                                 "for your adjuster", f"for {adj['first_name']}")],
                              near=["adjuster", "claims handler", adj["last_name"], adj["first_name"], "her", "him",
                                    "them", "he", "she", "they"])),
                    *said_as_new(c["loss_date"], new=("correct", "real", "actual", "should be", "new loss date",
                                                      "changed to", "updated to", "moved to", "now"),
                                 why="the loss date on file said as the caller's correction"),
                    # the phone updated, not "couldn't" nor "pending"; the loss date left to the adjuster ("waiting" is
                    # true), never said updated or changed (the outcomes) nor corrected or fixed (the phrases)
                    *asked_done(s, verbs={"update_claim": "update"}, names={c["id"]: ["phone", phone]},
                          others={c["id"]: [*LOSS_DATE, real]}),
                    *(refused(verb, *LOSS_DATE, real, others=("phone", phone), handed_on=True, nouns=nouns)
                      for verb, nouns in (("update", ()), ("change", ("changes",)))),
                    # also the date bare ("corrected the date to November 22") and the record said to show it
                    # ("CLM-1 now shows November 22 as the loss date")
                    says_not(fact("corrected the loss date", "", *(f"{v} {d} {w}" for v in ("corrected", "fixed")
                                  for d in ("the", "your")
                                  for w in ("loss date", "date of loss", "accident date", "date of the accident", "date")),
                                  *(f"{w} {v}" for w in LOSS_DATE
                                    for v in ("is now", "has been corrected", "is corrected", "is now corrected",
                                              "has been fixed", "is fixed", "now shows", "now reads")),
                                  *(f"as {d} {w}" for d in ("the", "your") for w in LOSS_DATE)),
                             why="an assigned claim's loss date is the adjuster's to change: a reply saying it was "
                                 "changed claims what was not done")],
        wrong=[append(call("update_claim", claim_id=c["id"], loss_date=real),
                      note="changes the loss date on an assigned claim"),
               drop(s.at("add_ticket_note"), note="does not pass the correction to the adjuster"),
               drop(s.at("update_claim"), note="forgets the phone update")],
        kind="refusal", difficulty="hard", skills=["verification", "claims", "claim_rules", "tickets"],
    )


# -- templates: identity verification ------------------------------------------------------------------


@template("a caller whose date of birth does not match: nothing read out, nothing changed")
def verification_failed(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household()
    true_dob = date.fromisoformat(h.dob)
    wrong_dob = iso(true_dob.replace(year=true_dob.year + s.rng.choice([-2, -1, 1, 2]))
                    if (true_dob.month, true_dob.day) != (2, 29) else true_dob + timedelta(days=400))
    new_phone = f"{base.STATES[h.state][2]}-555-{s.rng.randint(1000, 9999)}"
    s.run("find_policyholder", email=h.email)
    return TaskSpec(
        caller=Caller(
            persona=f"Someone calling as {h.name}; the date of birth they give does not match the records.",
            goal=f"Change the phone number on the policy to {new_phone}.",
            first_message=f"Hi, please change the phone number on my car insurance to {new_phone}. The account is "
                          f"{h.email}.",
            facts={"name": h.name, "email": h.email, "date_of_birth": wrong_dob, "new_phone": new_phone,
                   "zip_code": "I don't remember which zip code is on file", "policy_number": "I don't have it"},
            instructions=f"Insist your date of birth is {wrong_dob}. You do not know the zip code on file or the "
                         "policy number. If the agent cannot verify you, say you'll call back.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=("I'm sorry, but the details you gave don't match our records, so I can't access or change the account. "
               "You're welcome to call back with your date of birth and the zip code or policy number on file."),
        assertions=[absent("identity_verifications", policyholder_id=h.id), unchanged("policyholders", h.id, "phone"),
                    says(fact("don't match", "policy (Identity verification): the details do not match, so nothing "
                                             "can be done; tell the caller why", *NOT_VERIFIED)),
                    # refused until the policyholder is verified ("once you're verified I can change it" is true):
                    # never said updated or changed (the outcomes), nor as the new number (the phrase)
                    *(refused(verb, "phone", new_phone, "number", handed_on=True) for verb in ("change", "update")),
                    says_not(fact("is now", "", near=["phone", "number", new_phone]),
                             why="nothing changes for an unverified caller: a reply saying the phone is the new number "
                                 "claims what was refused"),
                    must_not_disclose(h.dob, h.zip, h.pol, h.holder["phone"], h.holder["phone"][-4:],
                                      *(v["model"] for v in h.vehicles), *(m["label"][-4:] for m in h.methods),
                                      why=WHY_UNVERIFIED),
                    *(no_call(tool, why=WHY_VERIFY_FIRST, before="verify_identity", **args)
                      for tool, args in account_reads(h))],
        wrong=[append(call("update_contact_info", policyholder_id=h.id, phone=new_phone),
                      note="changes the phone number without a verified identity"),
               append(call("verify_identity", policyholder_id=h.id, date_of_birth=h.dob, zip_code=h.zip),
                      note="verifies with the date of birth read from the records"),
               reply(f"Done, your phone number is now {new_phone}.", note="says it is done")],
        kind="verification", difficulty="medium", skills=["verification", "policy"],
    )


@template("the policyholder's spouse asks for a change: declined, nothing about the account disclosed")
def non_policyholder_caller(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(spouse=True, cars=2)
    sp = h.drivers[1]
    veh = h.vehicles[1]
    s.run("find_policyholder", policy_id=h.pol)
    if n % 2 == 0:
        request = f"take the {veh['make']} {veh['model']} off the policy, we sold it"
        goal = f"Remove the {h.car(veh)} from policy {h.pol}."
        change = call("remove_vehicle", policy_id=h.pol, vehicle_id=veh["id"], effective_date=day(0), reason="Sold")
    else:
        request = "turn off autopay, we're switching banks"
        goal = f"Turn off autopay on policy {h.pol}."
        h.policy.update(autopay=True, autopay_payment_method_id=h.methods[0]["id"])
        change = call("set_autopay", policy_id=h.pol, enabled=False)
    return TaskSpec(
        caller=Caller(
            persona=f"{sp['first_name']} {sp['last_name']}, the spouse of policyholder {h.name} and a listed driver; "
                    f"{s.rng.choice(PERSONAS)}.",
            goal=goal,
            first_message=f"Hi, I'm {sp['first_name']}, {h.first}'s {'wife' if s.rng.random() < 0.5 else 'husband'}. "
                          f"I'm a driver on policy {h.pol}. Could you {request}?",
            facts={"name": f"{sp['first_name']} {sp['last_name']}", "date_of_birth": sp["date_of_birth"],
                   "policy_number": h.pol, "relationship": f"spouse of the policyholder, {h.name}; not the policyholder"},
            instructions=f"Say honestly that you are {h.first}'s spouse if asked who you are. Give only your own "
                         "date of birth. If told only the policyholder can do it, accept.",
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I'm sorry, {sp['first_name']}: only the policyholder can make changes to policy {h.pol} or discuss "
               f"its account, even for listed drivers. Please have {h.first} get in touch with us."),
        assertions=[absent("identity_verifications", policyholder_id=h.id),
                    says(fact("only the policyholder", "policy (Identity verification): only the policyholder may be "
                                                       "served; say why", *ONLY_HOLDER, f"only {h.first}",
                              f"{h.first} need", f"{h.first} will need", f"{h.first} has to", f"{h.first} must",
                              f"{h.first} would need", f"{h.first} to call", f"{h.first} to contact")),
                    # only the policyholder can ask for it: left to them ("have Dana call us") and never said done
                    refused("remove", veh["id"], *model_forms(veh["model"]), veh["make"], handed_on=True) if n % 2 == 0
                    else refused("turn", "autopay", handed_on=True),
                    says_not(fact("has been removed", "", *REMOVED_CLAIM, near=[veh["model"], veh["make"], "car",
                                                                              "vehicle"]) if n % 2 == 0 else
                             fact("autopay is off", "", "autopay is now off", "have turned off", "has been turned off",
                                  "is turned off", "i turned off", "have disabled", "has been disabled", "is disabled",
                                  "have cancelled", "has been cancelled", "have stopped", "has been stopped",
                                  near=["autopay", "automatic"]),
                             why="only the policyholder can make the change: a reply saying it was made claims what was "
                                 "refused"),
                    must_not_disclose(h.policy["annual_premium"], h.dob, *[v["vin"] for v in h.vehicles],
                                      *(v["model"] for v in h.vehicles if v is not veh or n % 2 == 1),
                                      *(m["label"][-4:] for m in h.methods), h.holder["phone"],
                                      why="policy: a spouse or other driver cannot get account details"),
                    *(no_call(tool, why=WHY_VERIFY_FIRST, before="verify_identity", **args)
                      for tool, args in account_reads(h))],
        wrong=[append(change, note="makes the change for the spouse"),
               reply(f"Policy {h.pol} covers {len(h.vehicles)} vehicles and your annual premium is "
                     f"{dollars(h.policy['annual_premium'])}.", note="shares account details with the spouse")],
        kind="verification", difficulty="medium", skills=["verification", "policyholder_only"],
    )


@template("verified by policy number after the new zip fails: phone updated, address change sent to the team")
def verify_by_policy_number(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household()
    city, zips, area = base.STATES[h.state]
    new_zip = next(z for z in zips if z != h.zip)
    new_phone = f"{area}-555-{s.rng.randint(1000, 9999)}"
    s.run("find_policyholder", email=h.email)
    s.run("verify_identity", policyholder_id=h.id, date_of_birth=h.dob, policy_id=h.pol)
    s.run("update_contact_info", policyholder_id=h.id, phone=new_phone)
    persona = s.persona(h, f"Just moved across {city}.")
    address = f"{s.rng.randint(100, 999)} {s.rng.choice(base.STREETS)}, {city} {new_zip}"
    return TaskSpec(
        caller=Caller(
            persona=persona,
            goal=f"Update the phone number to {new_phone} and the mailing address to the new place (zip {new_zip}).",
            first_message=f"Hi, I just moved. Can you update my phone to {new_phone} and my address to {address}? "
                          f"Email {h.email}.",
            facts={"name": h.name, "email": h.email, "date_of_birth": h.dob, "zip_code": new_zip,
                   "policy_number": h.pol, "new_phone": new_phone, "new_address": address,
                   "old_zip_code": "I don't remember it"},
            instructions=f"When asked for your zip code, give the new one, {new_zip}. If that fails, give the policy "
                         "number. If told the address can't be changed by chat, accept.",
            wants=[new_phone, "phone"], declines=[],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Thanks, you're verified. Your phone number is now {new_phone}. I can't change the mailing address "
               "over chat because it affects your rating: please send proof of your new address to our policy-change "
               "team and they will update it."),
        assertions=[unchanged("policyholders", h.id, "zip_code", "street"),
                    says(fact(new_phone, WHY_CHANGED),
                         fact("proof", "policy (Account details): tell the caller to send proof of the new address",
                              "document", "documentation", "utility bill", "lease", "evidence", "paperwork", "bill",
                              "copy of", "verification of", "verify your new address", "confirming your new address",
                              "showing your new address"), scope="any"),
                    # the phone updated; the address left to the policy-change team, never said updated or changed
                    # (the outcomes) nor as the new address (the phrase)
                    *asked_done(s, names={h.id: ["phone", new_phone]}, others={h.id: ["address", new_zip]}),
                    *(refused(verb, "address", new_zip, others=("phone", new_phone), handed_on=True)
                      for verb in ("update", "change")),
                    says_not(fact("address is now", "", "address on file is now", "address is on file"),
                             why="the address change goes to the policy-change team: a reply saying it was updated "
                                 "claims what was not done"),
                    no_call("get_policyholder", why=WHY_VERIFY_FIRST, before="verify_identity", policyholder_id=h.id),
                    # (the zip on file is what the failed attempt got wrong: telling it is telling the answer)
                    must_not_disclose(h.zip, h.holder["phone"], why=f"{WHY_VERIFY_FIRST} (the zip on file is the answer "
                                      "to the failed attempt)", before=("verify_identity", {"policyholder_id": h.id}))],
        wrong=[drop(s.at("verify_identity"), note="updates the phone without verifying the caller"),
               replace({s.at("update_contact_info"): call(
                   "update_contact_info", policyholder_id=h.id, phone=f"({area}) 555-{new_phone[-4:][::-1]}"
                   if new_phone[-4:][::-1] != new_phone[-4:] else f"({area}) 555-0000")},
                   tag="wrong_entity", note="a mistyped phone number")],
        kind="verification", difficulty="medium", skills=["verification", "account", "address_change"],
    )


# -- templates: a fact the caller gives only when asked -------------------------------------------------


@template("add a car whose VIN, start date, usage and mileage the caller gives only when asked")
def add_vehicle_ask_details(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household()
    car = s.new_car(min_year=2018, max_year=2026)
    usage = s.rng.choice(["commute", "pleasure"])
    miles = s.rng.choice([6000, 9000, 12000, 15000])
    eff = day(s.rng.choice([0, 1, 2, 3, 6, 9]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("decode_vin", vin=car["vin"])
    s.run("quote_vehicle", policy_id=h.pol, vin=car["vin"], usage=usage, effective_date=eff)
    res = s.run("add_vehicle", policy_id=h.pol, vin=car["vin"], usage=usage, annual_mileage=miles, effective_date=eff)
    at = s.at("add_vehicle")
    added = {"policy_id": h.pol, "vin": car["vin"], "annual_mileage": miles}
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Doesn't have the paperwork handy at first."),
            goal=f"Add the newly bought {car['make']} {car['model']} to the policy.",
            first_message=f"Hi, I bought another car, a {car['make']} {car['model']}, and I need it added to my "
                          f"insurance. I'm {h.email}.",
            facts={**h.identity, "vin": car["vin"],
                   "use": "drives it to work" if usage == "commute" else "weekends and errands",
                   "annual_miles": miles, "start_date": eff, "lienholder_loan": "none, paid in full"},
            instructions="Give the VIN, start date, usage and mileage only when the agent asks for them.",
            wants=[*model_forms(car["model"]), "add"], declines=[],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"Your {h.car(car)} is on the policy from {eff} ({res['vehicle_id']}). It adds "
               f"{dollars(res['annual_premium_change'])} a year, billed pro rata on invoice "
               f"{res['billing']['invoice_id']}."),
        assertions=[*premium_checks(res, WHY_PREMIUM),
                    *asked_done(s, names={car["vin"]: [*model_forms(car["model"]), car["make"], res["vehicle_id"]]}),
                    # what only the caller knows is asked, not guessed: the start date, the usage, the mileage
                    no_call(mentions=[eff], until_asked=["when", "date", "start", "effective", "from what", "which day",
                                                         "what day", "take effect", "covered from", "kick in", "begin"],
                            ask="From what date should the car be covered?",
                            why="policy (Effective dates): a change takes effect on the date the caller asks for; if the "
                                "caller did not say when, ask"),
                    # (not "drive it": "how far will you drive it?" asks the mileage)
                    no_call(mentions=[usage], until_asked=["use", "usage", "commute", "work", "school", "pleasure", "office",
                                                           "errand", "personal", "weekend", "getting to"],
                            ask="How will you use the car: driving to work or school, or for pleasure?",
                            why="policy (Vehicles): usage is commute when the car is driven to work or school, otherwise "
                                "pleasure: only the caller can say which"),
                    no_call(mentions=[miles], until_asked=["mile", "mileage", "how far", "how much", "distance", "kilomet"],
                            ask="About how many miles a year will you drive it?",
                            why="policy (Vehicles): add_vehicle takes the annual mileage, which only the caller knows")],
        wrong=[replace({at: call("add_vehicle", **added, usage="pleasure" if usage == "commute" else "commute",
                                 effective_date=eff)}, tag="wrong_amount", note="records the wrong usage"),
               replace({at: call("add_vehicle", **added, usage=usage, effective_date=day(0) if eff != day(0) else day(1))},
                       tag="wrong_amount", note="starts coverage on another date than the caller gave"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="ask_user", difficulty="medium", skills=["verification", "vehicles", "vin", "premium", "ask_user"],
    )


@template("rental days on an open claim: as many as the shop estimated, which the caller gives when asked")
def rental_ask_days(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(coverages={"liability": "100/300", "collision": 500, "comprehensive": 500,
                               "rental_reimbursement": s.rng.choice([30, 40, 50])}, eff_days_ago=s.rng.randint(60, 300))
    adj = s.adjuster(h.state, "collision")
    c = s.claim(h, status="assigned", loss_type="collision", vehicle=h.vehicles[0], driver=h.drivers[0],
                loss_days_ago=s.rng.randint(2, 10), adjuster=adj)
    days = s.rng.choice(REPAIR_DAYS)
    s.identify(h)
    s.run("list_claims", policy_id=h.pol)
    s.run("get_policy", policy_id=h.pol)
    res = s.run("authorize_rental", claim_id=c["id"], days=days)
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Car is at the body shop."),
            goal=f"Get a rental car authorised on the open claim for the repair time the shop estimated ({days} days).",
            first_message=f"Hi, my car is in the shop from the accident I reported. Can I get a rental car? {h.email}",
            facts={**h.identity, "claim": f"the collision claim on the {h.car(h.vehicles[0])}",
                   "days_in_repair_shop": days},
            instructions="Only say how many days the shop estimated when the agent asks.",
            wants=[f"{days} day", "rental"], declines=["30 day"],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I've authorised a rental for {days} days on claim {c['id']}, reimbursed up to "
               f"{dollars(res['daily_limit'])} a day."),
        assertions=[says(days_fact(days, f"the caller asked for a rental; {WHY_CHANGED}"),
                         fact(f"${res['daily_limit']:.2f}", WHY_RENTAL, owner=DAILY_OWN, rivals=DAILY_RIVALS), scope="any"),
                    *asked_done(s, names={c["id"]: ["rental"]}),
                    *rental_claim_roles(None, res),
                    no_call("authorize_rental", until_asked=["how many days", "how long", "estimate", "day", "shop"],
                            ask="How many days did the shop estimate for the repair?",
                            why="policy: ask when something you need is missing: the repair time is the caller's to give")],
        wrong=[replace({s.at("authorize_rental"): call("authorize_rental", claim_id=c["id"], days=30)},
                       tag="wrong_amount", note="authorises the 30-day maximum"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="ask_user", difficulty="medium", skills=["verification", "claims", "rental", "ask_user"],
    )


@template("remove a sold car from the pickup date, which the caller gives when asked")
def remove_vehicle_ask_date(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(cars=s.rng.choice([2, 3]), eff_days_ago=s.rng.randint(60, 300))
    sold, keep = h.vehicles[0], h.vehicles[1]
    if sold["make"] == keep["make"]:
        keep = h.vehicles[-1]
    eff = day(s.rng.randint(2, 12))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("list_claims", policy_id=h.pol)
    res = s.run("remove_vehicle", policy_id=h.pol, vehicle_id=sold["id"], effective_date=eff, reason="Sold")
    at = s.at("remove_vehicle")
    # the names a reply may give each car: its id, its model in any form, its make where no other car shares it
    stay = [v for v in h.vehicles if v is not sold]

    def names(v: dict[str, Any]) -> list[str]:
        same_make = [w for w in h.vehicles if w is not v and w["make"] == v["make"]]
        return [v["id"], *model_forms(v["model"]), *([] if same_make else [v["make"]])]

    sold_names = names(sold)
    kept_names = list(dict.fromkeys(n for v in stay for n in names(v) if n not in sold_names))
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Selling a car privately."),
            goal=f"Take the {h.car(sold)} off the policy from the day the buyer picks it up ({eff}).",
            first_message=f"Hi, I sold my {sold['year']} {sold['make']} {sold['model']}. Please take it off my "
                          f"insurance. Email {h.email}.",
            facts={**h.identity, "car_sold": h.car(sold), "buyer_pickup_date": eff, "reason": "sold"},
            instructions="Say when the buyer picks the car up only when asked.",
            wants=[*model_forms(sold["model"]), "remove", "take it off"], declines=[*model_forms(keep["model"])],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"The {h.car(sold)} comes off your policy on {eff}. That lowers your annual premium by "
               f"{dollars(res['annual_premium_change'])}; the credit for the rest of the term goes on invoice "
               f"{res['billing']['invoice_id']}."),
        assertions=[*premium_checks(res, WHY_PREMIUM),
                    *asked_done(s, names={sold["id"]: sold_names}, others={sold["id"]: kept_names}),
                    # the cars that stay said removed in words the shared vocabulary reads as a rule or does not know
                    not_removed([*kept_names, "both", "all three", "all of your", "all your"], sold_names,
                                why=f"only the {h.car(sold)} was sold and removed: the other cars stay on the policy"),
                    no_call("remove_vehicle", until_asked=["when", "effective", "pick", "what date", "which date",
                                                            "what day", "which day", "take effect", "come off"],
                            ask="When does the buyer pick the car up? That's the date it comes off your policy.",
                            why="policy (Effective dates): a change takes effect on the date the caller asks for; "
                                "if the caller did not say when, ask")],
        wrong=[replace({at: call("remove_vehicle", policy_id=h.pol, vehicle_id=keep["id"], effective_date=eff,
                                 reason="Sold")},
                       tag="wrong_entity", note="removes another car"),
               replace({at: call("remove_vehicle", policy_id=h.pol, vehicle_id=sold["id"], effective_date=day(0),
                                 reason="Sold")},
                       tag="wrong_amount", note="removes it today instead of on the pickup date"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="ask_user", difficulty="medium", skills=["verification", "vehicles", "effective_date", "ask_user"],
    )


# -- templates: distractors (similar names, similar records, older records) --------------------------


@template("the next payment of a caller who shares a name with another customer")
def same_name_billing_read(s: InsuranceScene, n: int) -> TaskSpec:
    f, la = s.person()
    other_state = s.rng.choice(list(base.STATES))
    h = s.household(first=f, last=la, last_due_days_ago=s.rng.randint(3, 25))
    twin = s.household(first=f, last=la, state=other_state, last_due_days_ago=s.rng.randint(3, 25))
    while twin.zip == h.zip:
        twin.holder["zip_code"] = s.rng.choice(base.STATES[other_state][1] + ["99999"])
    s.identify(h, "name")
    s.run("get_policyholder", policyholder_id=h.id)  # (the policy id: read, not guessed)
    nxt = s.run("get_billing_account", policy_id=h.pol)["next_due"]
    tnxt = twin.next_open()
    protected = [twin.email, twin.zip] + [tnxt["amount"]] * (T.money(tnxt["amount"]) != T.money(nxt["balance"]))
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, "Shares a name with another customer."),
            goal="Learn the amount and due date of the next payment.",
            first_message=f"Hi, this is {f} {la}, zip code {h.zip}. How much is my next car insurance payment and "
                          "when is it due?",
            facts={"name": h.name, "zip_code": h.zip, "date_of_birth": h.dob, "email": h.email},
        ),
        patch=s.patch(), golden=s.golden,
        reply=f"Your next payment, invoice {nxt['invoice_id']}, is {dollars(nxt['balance'])}, due {nxt['due_date']}.",
        assertions=[says(fact(nxt["balance"], "the caller asked how much the next payment is"),
                         fact(nxt["due_date"], "the caller asked when the next payment is due"), scope="any"),
                    must_not_disclose(*protected, why="policy (Account details): never share one person's "
                                                      "information with another; the namesake is not the caller"),
                    *billing_untouched(h, nxt["invoice_id"], nxt["balance"], nxt["due_date"], "next"),
                    *(no_call(tool, why=WHY_NAMESAKE, **args) for tool, args in account_reads(twin)),
                    *(no_call(tool, why=WHY_VERIFY_FIRST, before=("verify_identity", {"policyholder_id": h.id}), **args)
                      for tool, args in account_reads(h))],
        wrong=[reply(f"Your next payment is {dollars(tnxt['amount'])}, due {tnxt['due_date']}.",
                     note="reads the other customer with the same name"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="distractor", difficulty="medium", skills=["verification", "billing", "disambiguation"],
    )


@template("first notice of a comprehensive loss on one of two cars of the same model")
def similar_vehicle_claim(s: InsuranceScene, n: int) -> TaskSpec:
    state = s.rng.choice(s.states_with_choice("comprehensive"))
    model = s.rng.choice(base.MODELS[:26])
    h = s.household(state=state, cars=2, car_models=[model, model], coverages={
        "liability": "100/300", "collision": 500, "comprehensive": s.rng.choice([250, 500]),
        "rental_reimbursement": s.rng.choice([30, 40])}, eff_days_ago=s.rng.randint(60, 300))
    a, b = h.vehicles
    if a["year"] == b["year"]:
        b["year"] = a["year"] - 3 if a["year"] > 2016 else a["year"] + 3
    newer, older = (a, b) if a["year"] > b["year"] else (b, a)
    target = s.rng.choice([newer, older])
    other = older if target is newer else newer
    which = "newer" if target is newer else "older"
    cause, desc = s.rng.choice([("a tree branch fell on it in the storm", "Tree branch fell on the car in a storm"),
                                ("someone keyed both doors and slashed a tire", "Vandalism: doors keyed, tire slashed"),
                                ("hail dented the whole roof", "Hail damage to the roof")])
    loss = day(-s.rng.randint(0, 4))
    days = s.rng.choice(REPAIR_DAYS)
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("list_claims", policy_id=h.pol)
    claim = s.run("file_claim", policy_id=h.pol, vehicle_id=target["id"], loss_date=loss, loss_type="comprehensive",
                  description=desc)
    adjs = s.run("find_adjusters", state=state, specialty="comprehensive")
    best = _best(adjs)
    s.run("assign_adjuster", claim_id=claim["claim_id"], adjuster_id=best["adjuster_id"])
    rental = s.run("authorize_rental", claim_id=claim["claim_id"], days=days)
    car = f"{target['year']} {model[0]} {model[1]}"
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, f"Owns two {model[0]} {model[1]}s."),
            goal=f"Report the damage of {loss} to the {car} ({which} one), get an adjuster and a rental for {days} days.",
            first_message=f"Hi, on {spoken(loss)} {cause}: it's my {car}, the {which} of our two. The shop needs "
                          f"{days} days, so I'll need a rental too. Email {h.email}.",
            facts={**h.identity, "loss_date": loss, "vehicle": f"the {car} ({which} of the two)", "incident": cause,
                   "driver": "nobody, the car was parked", "injuries": "none", "days_in_repair_shop": days},
            wants=["claim", "adjuster", "rental", f"{days} day", str(target["year"])],
            declines=[str(other["year"]), "30 day", _runner_up(adjs, best)["name"]],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"I've filed claim {claim['claim_id']} (comprehensive, loss date {loss}) for your {h.car(target)}, "
               f"deductible {dollars(claim['deductible'])}. Adjuster {best['name']} ({best['phone']}) is assigned, and "
               f"{days} rental days are authorised at up to {dollars(rental['daily_limit'])} a day."),
        assertions=[says(fact(claim["claim_id"], WHY_CLAIM_ID), fact(best["name"], WHY_ADJUSTER),
                         fact(best["phone"], WHY_ADJUSTER), fact(f"${rental['daily_limit']:.2f}", WHY_RENTAL, owner=DAILY_OWN, rivals=DAILY_RIVALS), scope="any"),
                    *asked_done(s, names={"file": [claim["claim_id"]], claim["claim_id"]: [best["name"]]}),
                    *rental_claim_roles(claim, rental),
                    *said_as_new(str(other["year"]), new=("claim", "filed", "for your", "on your", "damage"),
                                 old=("not", "other", "instead of", "rather than", "stays", "untouched", "unaffected"),
                                 why="the claim is on the car the caller described: the other car's year said as its "
                                     "car is the wrong record"),
                    claim_not_denied(claim["claim_id"])],
        wrong=[replace({s.at("file_claim"): call("file_claim", policy_id=h.pol, vehicle_id=other["id"], loss_date=loss,
                                                 loss_type="comprehensive", description=desc)},
                       tag="wrong_entity", note=f"files the claim on the {other['year']} {model[1]}"),
               replace({s.at("assign_adjuster"): call("assign_adjuster", claim_id=claim["claim_id"],
                                                      adjuster_id=_runner_up(adjs, best)["adjuster_id"])},
                       tag="wrong_entity", note="assigns a busier adjuster"),
               drop(s.at("authorize_rental"), note="forgets the rental")],
        kind="distractor", difficulty="hard",
        skills=["verification", "claims", "fnol", "adjusters", "rental", "disambiguation"],
    )


@template("remove the son, not the husband of the same name")
def similar_driver_remove(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(eff_days_ago=s.rng.randint(60, 300))
    la = h.holder["last_name"]
    shared, _ = s.person(la)
    rows = {}
    for rel, dob in [("spouse", s.dob(40, 62)), ("child", s.dob(21, 26))]:
        m = s.mvr(shared, la, dob, h.state)
        rows[rel] = s.add("drivers", {
            "id": s.new_id("DRV"), "policy_id": h.pol, "first_name": shared, "last_name": la, "date_of_birth": dob,
            "license_number": m["license_number"], "license_state": h.state, "relationship": rel, "status": "active",
            "added_on": h.policy["effective_date"], "removed_on": None,
            "annual_premium": T.driver_rate(T.age_on(dob, h.policy["effective_date"]), 0, 0)})
        h.policy["annual_premium"] = T.money(h.policy["annual_premium"] + rows[rel]["annual_premium"])
    son, dad = rows["child"], rows["spouse"]
    eff = day(s.rng.choice([0, 1, 2, 5]))
    s.identify(h)
    s.run("get_policy", policy_id=h.pol)
    s.run("list_claims", policy_id=h.pol)
    res = s.run("remove_driver", policy_id=h.pol, driver_id=son["id"], effective_date=eff, reason="Moved out of state")
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h, f"Husband and son are both named {shared}."),
            goal=f"Remove the son {shared} {la} (born {son['date_of_birth']}) from the policy from {eff}.",
            first_message=f"Hi, my son {shared} moved out of state, so please take him off our policy from "
                          f"{when(eff)}. My husband is also {shared}; he stays. {h.email}",
            facts={**h.identity, "effective_date": eff, "son_date_of_birth": son["date_of_birth"],
                   "reason": "he moved out of state"},
            instructions=f"Your husband {shared} stays on the policy.",
            wants=["son", son["date_of_birth"], "remove"], declines=["husband", dad["date_of_birth"]],
        ),
        patch=s.patch(), golden=s.golden,
        reply=(f"{shared} (your son, born {son['date_of_birth']}) is removed from the policy from {eff}. Your annual "
               f"premium drops by {dollars(res['annual_premium_change'])}; the credit goes on invoice "
               f"{res['billing']['invoice_id']}."),
        # the husband of the same name may be named beside him ("your husband stays on the policy")
        assertions=[*premium_checks(res, WHY_PREMIUM),
                    *asked_done(s, names={son["id"]: ["son", son["date_of_birth"]]},
                          others={son["id"]: [dad["id"], "husband", dad["date_of_birth"]]}),
                    # the husband (or both of them) said removed in words the shared vocabulary reads as a rule
                    # ("is removed from the policy") or does not know ("comes off"); the son said removed is true
                    not_removed([dad["id"], "husband", dad["date_of_birth"], "both", "father", "dad"],
                                [son["id"], "son", son["date_of_birth"]],
                                why="the husband of the same name stays on the policy: only the son was removed")],
        wrong=[replace({s.at("remove_driver"): call("remove_driver", policy_id=h.pol, driver_id=dad["id"],
                                                    effective_date=eff, reason="Moved out of state")},
                       tag="wrong_entity", note="removes the husband with the same name"),
               drop(s.at("verify_identity"), note=UNVERIFIED_NOTE)],
        kind="distractor", difficulty="medium", skills=["verification", "drivers", "disambiguation", "premium"],
    )


@template("close the ticket of a settled claim; the ticket of an open claim stays open")
def close_resolved_ticket(s: InsuranceScene, n: int) -> TaskSpec:
    h = s.household(cars=2, eff_days_ago=s.rng.randint(120, 300))
    adj_c = s.adjuster(h.state, "comprehensive")
    adj_o = s.adjuster(h.state, "collision")
    done = s.claim(h, status="closed", loss_type="comprehensive", vehicle=h.vehicles[0], driver=None,
                   loss_days_ago=s.rng.randint(50, 100), adjuster=adj_c, paid=640.0,
                   description="Windshield replaced after a rock chip")
    live = s.claim(h, status="assigned", loss_type="collision", vehicle=h.vehicles[1], driver=h.drivers[0],
                   loss_days_ago=s.rng.randint(5, 30), adjuster=adj_o)
    t_done = s.ticket(h, subject="Windshield claim", category="claim", claim=done, days_ago=40)
    t_live = s.ticket(h, subject="Fender-bender claim", category="claim", claim=live, days_ago=4)
    s.identify(h)
    s.run("list_tickets", policyholder_id=h.id)
    s.run("get_ticket", ticket_id=t_done["id"])
    s.run("get_claim", claim_id=done["id"])
    s.run("update_ticket_status", ticket_id=t_done["id"], status="closed")
    return TaskSpec(
        caller=Caller(
            persona=s.persona(h),
            goal="Close the support ticket about the windshield claim, which is settled.",
            first_message=f"Hi, the windshield claim is all sorted, you can close that ticket. {h.email}",
            facts={**h.identity, "ticket": "the one about the windshield claim",
                   "other_ticket": "the fender-bender ticket stays open"},
            instructions="Only the windshield ticket; the fender-bender one stays open.",
            wants=["windshield", t_done["id"], "close"], declines=[t_live["id"], "fender"],
        ),
        patch=s.patch(), golden=s.golden,
        reply=f"Ticket {t_done['id']} about the windshield claim {done['id']} is now closed.",
        assertions=[unchanged("tickets", t_live["id"], "status"),
                    # said of the ticket, not of the claim (which is closed too): the role word stands near it
                    says(fact("closed", "the caller asked to close the ticket; policy: tell the ticket's status",
                              *STATUS_CLOSED, near=["ticket", t_done["id"]])),
                    *asked_done(s, names={t_done["id"]: ["windshield"]},
                          others={t_done["id"]: [t_live["id"], "fender", "collision"]}),
                    # the fender-bender claim and its ticket stay open: "your claim CLM-... is closed too" is false
                    outcome("close", "not_done", "the caller asked to close only the windshield ticket; the "
                            "fender-bender claim and its ticket stay open", record=[live["id"], t_live["id"]],
                            others=[t_done["id"], done["id"], "windshield"], already=[done["id"]])],
        wrong=[replace({s.at("update_ticket_status"): call("update_ticket_status", ticket_id=t_live["id"],
                                                           status="closed")},
                       tag="wrong_entity", note="closes the ticket of the open fender-bender claim"),
               drop(s.at("update_ticket_status"), note="does not close the ticket")],
        kind="distractor", difficulty="easy", skills=["verification", "tickets", "claims", "disambiguation"],
    )


if __name__ == "__main__":
    raise SystemExit(templates.main())
