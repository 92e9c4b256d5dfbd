"""The banking task templates: `python -m tb_env.tasks.banking.generate [--check | --validate]`.

Each template builds one task from a `BankScene`: the customers and records it needs
(drawn from the split's own pools, so test and train never share a customer), the
caller (what they want and every fact they give when asked), the golden calls and
reply, the assertions and the wrong paths. `tb_env.kit` does the rest: k instances per
split, the YAML files, `--check` (are the files current) and `--validate` (the contract
and the metamorphic probes).

Reply facts are the ones the policy makes the agent say (a refusal's reason, a new
card's digits, a dispute's id and amount, ...) or that the customer asked for, each with
its `why`; the policy's recurring wordings are defined once below, with the aliases a
competent agent may use instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from tb_env.components.ticketing import CLAIMS as TICKET_CLAIMS
from tb_env.domain.normalize import contains_fact, normalize
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
    unchanged,
)

HERE = Path(__file__).parent
TODAY = date(2026, 11, 30)
NEW = 9001  # the first id of a record created by a tool (tools.NEW_ID_START)

FIRST = {
    "test": ["Aurelia", "Bastian", "Celeste", "Dorian", "Esme", "Florian", "Giselle", "Hugo", "Ines", "Jasper",
             "Kaia", "Leopold", "Mirela", "Niko", "Odette", "Pascal", "Rhea", "Silas", "Tamsin", "Ulric",
             "Valentina", "Wren", "Xavier", "Yvette", "Zeno", "Amara", "Bruno", "Cosima", "Dmitri", "Elodie",
             "Fabian", "Greta", "Henrik", "Ilse", "Joaquin", "Katya", "Lorenzo", "Marisol", "Nadia", "Orion"],
    "train": ["Adrian", "Beatrix", "Cyrus", "Delphine", "Emeric", "Freya", "Gideon", "Harriet", "Ignatius", "Juno",
              "Kasimir", "Lavinia", "Magnus", "Noor", "Octavia", "Percival", "Rosalind", "Sebastian", "Theodora",
              "Umberto", "Vivienne", "Winston", "Ximena", "Yannick", "Zora"],
}
LAST = {
    "test": ["Abernathy", "Bellweather", "Castellano", "Delacroix", "Eriksen", "Fairchild", "Galloway", "Holloway",
             "Ivanova", "Jablonski", "Kavanagh", "Lindqvist", "Marchetti", "Novak", "Oyelaran", "Pemberton",
             "Quintero", "Rasmussen", "Sorensen", "Tremblay", "Underwood", "Valdivia", "Whitaker", "Yamamoto",
             "Zielinski", "Achebe", "Brennan", "Carvalho", "Dunleavy", "Eskildsen"],
    "train": ["Ashcroft", "Blackwood", "Crane", "Drummond", "Ellsworth", "Fontaine", "Grimaldi", "Hargreaves",
              "Ingram", "Jorgensen", "Kilpatrick", "Lockhart", "Montague", "Northcott", "Osei", "Prescott",
              "Radcliffe", "Sinclair", "Thorne", "Umarov"],
}
CITIES = [  # (city, state, zip codes, area code) - area codes the seed never uses
    ("Portland", "OR", ["97209", "97212", "97217"], "971"),
    ("Austin", "TX", ["78702", "78703", "78751"], "737"),
    ("Denver", "CO", ["80203", "80206", "80211"], "303"),
    ("Columbus", "OH", ["43202", "43206", "43214"], "380"),
    ("Raleigh", "NC", ["27604", "27605", "27608"], "984"),
    ("Madison", "WI", ["53704", "53715", "53726"], "262"),
    ("Sacramento", "CA", ["95816", "95818", "95822"], "279"),
    ("Phoenix", "AZ", ["85003", "85004", "85012"], "623"),
]
STREETS = ["Alder St", "Beacon Ave", "Chestnut Ln", "Dogwood Dr", "Everett St", "Foxglove Ct", "Garnet Way",
           "Harbor Rd", "Ivy Ln", "Jasmine Ave"]
MERCHANTS = ["FreshMart Groceries", "Corner Coffee Co", "StreamFlix", "QuickFuel Gas", "Bookhaven", "TechDepot",
             "Pharma Plus", "Gym Nation", "Pizza Palace", "HomeGoods Hub", "PetPals Supply", "Green Leaf Market",
             "Metro Cinema", "Sunrise Bakery"]
SHOPS = [  # online shops for not-received / wrong-amount scenarios: (merchant, item)
    ("Lumen Lighting Co", "a floor lamp"), ("Nordic Knitworks", "two wool sweaters"), ("GearUp Outdoors", "a tent"),
    ("PixelPro Cameras", "a camera lens"), ("Casa Ceramica", "a dinner set"), ("Velo City Bikes", "a bike helmet"),
    ("SoundWave Audio", "a pair of speakers"), ("Urban Roots Nursery", "three potted plants"),
    ("Atlas Luggage", "a carry-on suitcase"), ("Brightside Kitchen", "a stand mixer"),
]
SUBSCRIPTIONS = ["FitTrack Premium", "CloudVault Storage", "Melody Stream", "DailyBrief News", "LingoLeap"]
FRAUD_MERCHANTS = ["GLOBALTRADE*ONLINE", "XPRS ELECTRONICS LTD", "LUXEWATCH OUTLET", "QPAY*GAMESHOP",
                   "NOVA DIGITAL GOODS", "TRAVELBOOK INTL", "SNEAKERVAULT WEB", "CRYPTOSWAP SERVICES"]
HOTELS = ["Grand Plaza Hotel", "Seaside Inn", "Harborview Suites", "Mountain Lodge Resort", "Cityline Hotel"]
PAYEE_LAST = ["Hale", "Moreno", "Pryce", "Lind", "Okafor", "Brandt", "Sato", "Keller", "Duarte", "Voss"]
SIMILAR = {  # payee first names that differ by a letter or two, per split
    "test": [("Daniel", "Daniela"), ("Marco", "Marcos"), ("Julian", "Juliana"), ("Christian", "Christina"),
             ("Paulo", "Paula"), ("Gabriel", "Gabriela")],
    "train": [("Adrian", "Adriana"), ("Mario", "Maria"), ("Simon", "Simone"), ("Luis", "Luisa")],
}
BANKS = ["First Harbor Bank", "Summit Credit Union", "Pioneer National", "Riverbend Savings", "Keystone Bank",
         "Lakeshore Federal"]


class Level(NamedTuple):
    """What a KYC level allows (policy.md's table; the seed's kyc_limits)."""

    external: float  # external transfers per day
    spend: float  # card spend limit up to
    atm: float  # ATM limit up to
    refunds: int  # courtesy fee refunds per year
    name: str


LEVELS = {1: Level(1000.0, 1500.0, 300.0, 1, "basic"), 2: Level(5000.0, 5000.0, 800.0, 2, "standard"),
          3: Level(25000.0, 10000.0, 1500.0, 4, "premium")}
FEES = {"overdraft": 35.0, "monthly_maintenance": 12.0, "atm_out_of_network": 3.5, "returned_payment": 29.0,
        "paper_statement": 2.0, "card_replacement": 10.0, "expedited_card_shipping": 25.0}
FEE_NAMES = {"overdraft": "overdraft fee", "monthly_maintenance": "monthly maintenance fee",
             "atm_out_of_network": "out-of-network ATM fee", "returned_payment": "returned payment fee",
             "paper_statement": "paper statement fee"}


def day(days_ago: int) -> str:
    """The ISO date `days_ago` days before today (negative: in the future)."""
    return (TODAY - timedelta(days=days_ago)).isoformat()


def money(x: float) -> float:
    return round(x + 1e-9, 2)


def fmt(x: float) -> str:
    """Money as the agent would write it: 1250 -> '1,250.00'."""
    return f"{x:,.2f}"


def new_card_last4(old_last4: str, new_id: int = NEW) -> str:
    """The last 4 digits `replace_card` gives the new card (see tools.replace_card)."""
    return f"{(new_id * 7919 + int(old_last4)) % 10000:04d}"


# -- what the policy makes the agent say, in the wordings a competent agent may use ------------------

WHY_CARD = "policy, Cards: tell the customer the new card's last 4 digits, the delivery time and any fees"
WHY_DISPUTE = "policy, Disputes: tell the customer the dispute id, the amount and whether a provisional credit was given"
WHY_TRANSFER = "policy, Communicating: after a change, tell the transfer amount, payee and date"
WHY_REFUND = "policy, Fees: tell the customer the amount refunded"
WHY_CHANGED = "policy, Communicating: after a change, tell the customer what changed"

UNFROZEN = fact("unfrozen", f"{WHY_CHANGED}: the card's new status", "unfroze", "unlocked", "active again", "reactivated",
                "working again", "works again", "ready to use", "usable again", "lifted the freeze", "removed the freeze",
                "taken the freeze off", "took the freeze off", "freeze is off", "freeze has been lifted",
                "freeze has been removed", "freeze was lifted", "freeze was removed", "freeze is lifted", "freeze is removed",
                "no longer frozen", "been lifted", "been removed", "is lifted", "lifted", "unblocked", "back to active", "status is active", "status: active", "is now active",
                "is active now", "can use it again", "can use your card again", "can use the card again")
NOT_APPROVED = fact(
    "not be approved", "policy, Supervisor approvals: if denied, tell the customer it could not be approved",
    "not approved", "not been approved", "wasn't approved", "denied", "declined", "turned down", "rejected",
    "refused", "unable to approve", "couldn't approve", "could not approve", "not granted", "not be granted",
    "wasn't granted", "not authorized", "not authorised", "couldn't get approval", "could not get approval",
    "unable to get approval", "didn't get approval", "did not get approval", "approval was denied", "didn't approve",
    "did not approve", "not able to approve", "said no",
)
SPECIALIST_CALLBACK = fact(
    "one business day", "policy, Support tickets: on escalation, tell the customer a specialist will contact them "
    "within one business day", "next business day", "a business day", "one working day", "next working day",
    "a working day", "24 hours", "within a day", "within 1 day",
)
# What a change did, in the short words a competent agent uses; the core drops one right after a
# negation ("I couldn't cancel", "it was not refunded", "I wasn't able to update"), so a reply that
# names the right amount but says the change failed scores 0.
TRANSFER_DONE = fact(
    "sent", f"{WHY_TRANSFER}: that it was made", "moved", "transferred", "scheduled", "set up", "on its way", "on the way",
    "is pending", "processed", "initiated", "submitted", "completed", "complete", "went through", "gone through",
    "will move", "will be moved", "will go", "will be sent", "will be transferred", "will transfer", "done", "booked",
    "queued", "arrive", "arrives", "arriving", "is now in", "now in", "paid", "all set", "arranged", "lined up", "created",
    "placed", "made",
)
# a transfer scheduled for a later date has not gone out yet: said as money already moved, it is a false report
SENT_NOW = ("sent today", "sent it today", "already sent", "already been sent", "already gone", "gone out", "went out",
            "left your account", "already moved", "already been moved", "moved today", "transferred today",
            "already transferred", "already been transferred", "is in their account", "is now in their account",
            "has arrived", "already arrived", "arrived in",
            # (into one's own account: "it's already in your savings", "the money is available now")
            "already in your", "is already in", "is now in your", "already sitting in", "has landed", "already landed",
            "already available", "available right away", "available now", "available immediately", "already there")


def not_sent_yet(when: str) -> dict[str, Any]:
    # ("sent 1,250.00 to them today": the day said of the sending, words apart)
    return says_not(fact(SENT_NOW[0], "", aliases=SENT_NOW[1:]),
                    fact("today", "", "this morning", "just now", near=("sent", "transferred", "went out", "gone out",
                                                                      "moved", "paid", "left your")),
                    why=f"the transfer is scheduled for {when}: the money has not gone out yet")


# an external transfer sent today is on its way (1-3 business days): said as already there, it is a false report
ARRIVED = ("has arrived", "already arrived", "arrived in", "is in their account", "is now in their account",
           "is in his account", "is now in his account", "is in her account", "is now in her account", "already in their",
           "already in his", "already in her", "already received", "has received it", "have received it")
# (nor said to go out on a later day: "I've scheduled it; it will be sent next week")
SENT_LATER_DAY = ("will be sent on", "will go out on", "will be sent next", "will go out next", "will be sent tomorrow",
                  "will go out tomorrow", "scheduled for next", "scheduled for tomorrow", "scheduled it for",
                  "i have scheduled", "i scheduled", "scheduled to go out on", "scheduled to be sent on")
# (nor said to arrive sooner than the policy's 1-3 business days: "it will be in her account within the hour")
ARRIVES_SOON = ("within the hour", "later today", "by tonight", "tonight", "by end of day", "by the end of the day",
                "end of today", "within minutes", "in a few minutes", "in minutes", "instantly", "immediately",
                "right away", "straight away", "within an hour", "within 1 hour", "within 2 hours",
                "within a few hours", "in a few hours", "the same day", "same-day")  # (1 business day may be tomorrow)
ARRIVE_WORDS = ("arriv", "land", "reach", "in their account", "in her account", "in his account", "be there",
                "available to them", "get it", "receive", "show up", "clear", "be credited", "credited to")
NOT_ARRIVED = says_not(fact(ARRIVED[0], "", aliases=ARRIVED[1:]), fact(SENT_LATER_DAY[0], "", aliases=SENT_LATER_DAY[1:]),
                       fact(ARRIVES_SOON[0], "", aliases=ARRIVES_SOON[1:], near=ARRIVE_WORDS),
                       why="policy, Transfers: an external transfer sent today has gone out and arrives within 1-3 "
                           "business days: it has not arrived yet, nor does it wait for a later day, nor arrives sooner")
# an internal transfer made now is done at once: said as scheduled or still to arrive, it is a false report
# (not "will be transferred": "Done. $300 will be transferred out of Checking into Savings" is the customer's
# words for a transfer made now; only a date, a wait or a pending state says it is not done)
LATER = ("is scheduled", "scheduled for", "have scheduled", "will arrive", "business days", "is pending",
         "in a few days")
NOT_LATER = says_not(fact(LATER[0], "", aliases=LATER[1:]),
                     why="policy, Transfers: a transfer between the customer's own accounts made now is done at once")


CANCEL_CUES = ("cancel", "called off", "stopped", "stop", "removed", "deleted", "no longer scheduled", "won't go out",
               "will not go out", "won't be sent", "will not be sent", "skip")
"""What binds a date to the transfer cancelled (the other date "stays scheduled")."""
CANCELLED = fact(
    "cancelled", f"{WHY_CHANGED}: the customer asked to cancel the transfer", "canceled", "called off", "stopped",
    "removed", "deleted", "no longer scheduled", "won't go out", "will not go out", "won't be sent", "will not be sent",
)
LIMIT_SET = fact(
    "now", f"{WHY_CHANGED}: that the limit was changed", "set", "updated", "changed", "raised", "lowered", "increased",
    "decreased", "reduced", "adjusted", "new limit", "new daily", "new atm", "new spending", "new withdrawal",
    "gone up", "went up", "goes up", "gone down", "went down", "goes down",
)
REFUND_DONE = fact(
    "refunded", f"{WHY_REFUND}: that it was refunded", "credited", "back in your account", "back to your account",
    "back into your account", "returned", "reimbursed", "reversed", "waived", "processed", "issued", "applied", "is back",
    "are back", "refund is complete", "refund went through", "refund has gone through", "refund amount", "amount refunded",
    "total refunded", "refund total", "total refund", "refunds total",
    # (the refund approved and its money arrived: "approved the refund of your 35.00 fee: the money is in your account now")
    "money is in your account", "in your account now", "approved the refund",
)
UPDATED = fact(
    "now", f"{WHY_CHANGED}: that the profile was updated", "updated", "changed", "saved", "set", "replaced", "recorded",
    "new phone number", "new number", "new mobile number", "new address", "new mailing address", "new zip code",
    "number on file", "address on file", "number on your profile", "address on your profile",
)
UPGRADED = fact(
    "upgraded", f"{WHY_CHANGED}: that the KYC level was raised", "upgrade is complete", "upgrade is done",
    "upgrade went through", "moved up", "moved you", "now at", "now on", "now level", "now a", "is now", "are now",
    "now have", "raised", "bumped", "new level", "new kyc level",
)

NEEDS_KYC = fact(
    "KYC", "policy, KYC: an action that needs a verified KYC status is refused by saying it needs a verified identity (KYC)",
    "verified identity", "identity verification", "verify your identity", "know your customer", "identity documents",
    "ID verification", "identity check", "ID check", may_be_negated=True,  # the reason names what is missing:
)  # "you haven't completed KYC verification", "your identity isn't verified yet"

# A status word alone ("credit", "released", "closed", "verify") is also in the sentence that
# denies it ("no provisional credit", "will be released on", "can't be closed", "you're
# verified"): these facts are phrases that say the thing happened, or bind the status to
# its record, so a wrong statement fails and the ways a competent agent says it pass.
DONE = ("has been", "have been", "was", "were", "is now", "are now", "i've", "i have", "we've", "we have", "i've now",
        "i've just", "i just")  # what goes before a participle to say the action is done


def unique(wordings: list[str]) -> list[str]:
    """The wordings without the ones that normalise to an earlier one."""
    seen, out = set(), []
    for w in wordings:
        key = normalize(w)
        if key not in seen:
            seen.add(key)
            out.append(w)
    return out


def phrases(value: str, why: str, wordings: list[str]) -> dict[str, Any]:
    """A fact said by any of these phrases (`value` first)."""
    return fact(value, why, aliases=[w for w in unique(wordings) if normalize(w) != normalize(value)])


def done(*participles: str, past: tuple[str, ...] = (), objects: tuple[str, ...] = ()) -> list[str]:
    """The phrases that say an action happened: "has been released", "I've lifted",
    "released the"/"released it" (the simple past before its object; `past` adds the forms
    that differ from the participle, "withdrew")."""
    out = [f"{aux} {p}" for p in participles for aux in DONE]
    out += [f"{verb} {obj}" for verb in (*participles, *past) for obj in objects]
    out += [f"i {verb}" for verb in past]
    return out


def ticket_closed(ticket_id: str) -> dict[str, Any]:
    """The ticket is now closed: "closed" bound to the ticket (a dispute is "closed" too, and
    "the ticket will be closed" is no answer)."""
    said = [f"{subject} {state}" for subject in ("ticket", ticket_id)
            for state in ("is closed", "is now closed", "is also closed", "has been closed", "has also been closed",
                          "was closed", "closed", "now closed", "as closed", "is marked closed", "is marked as closed")]
    said += [f"{subject}: closed" for subject in ("ticket", ticket_id, "ticket status")]
    said += [f"{verb} {obj}" for verb in ("closed", "closed out") for obj in ("the ticket", "your ticket", "that ticket",
                                                                            "ticket", ticket_id, "the related ticket",
                                                                            "its ticket", "the linked ticket")]
    return phrases("ticket is now closed", f"{WHY_CHANGED}: the ticket's status", said)


PROVISIONAL = ("provisional", "temporar", "while we investigate", "while we look into", "while the dispute",
               "while it is investigated", "while it's investigated", "in the meantime", "meantime")
"""What makes a credit the provisional one (cues match word starts: "provisionally", "temporarily")."""

CREDITED = ("credited", "issued", "applied", "given", "gave", "added", "posted", "granted", "approved", "put",
            "placed", "deposited", "provided", "received", "now have", "you have", "in your account", "on your account",
            "into your account", "back in your account", "is back", "are back")
"""The short words that say a credit was given; the core drops one right after a negation ("was not applied",
"couldn't issue"), and `near` binds it to the provisional credit ("you'll be credited if it is decided" is not)."""


def credit_given(*amounts: float, denied_possible: bool = False) -> dict[str, Any]:
    """The provisional credit was given (policy, Disputes: say whether it was): a short status
    word ("issued", "applied", "credited", "in your account") in the clause of "provisional" or
    "temporary" ("I've issued a temporary credit of 105.43", "a provisional credit of 105.43 has
    been applied", "you've been credited 105.43 provisionally"). A denial ("no provisional
    credit", "it could not be approved", "I wasn't able to apply it") says none of them. The
    amounts are facts of their own."""
    del amounts, denied_possible  # the amounts are required by their own facts; a denial is negated
    return fact("credited", WHY_DISPUTE, *CREDITED[1:], near=PROVISIONAL)


CREDIT_LATER = fact("will be credited", "", "will be issued", "will be applied", "will be given", "will be added",
                    "will be posted", "will be granted", "will be provided", "will be deposited", "will receive", "will get",
                    "will issue", "will apply", "will credit", "will add", "will then be", "would be credited",
                    "would be issued", "would receive", "would get", "is pending", "is waiting", "awaits", "awaiting",
                    near=PROVISIONAL)
"""A provisional credit that was given, said to come later ("a provisional credit will be issued once the dispute is
reviewed", "you'll receive a temporary credit"): the shared vocabulary reads only the credit verb's own forms."""
WHY_CREDIT_NOW = "policy, Disputes: the provisional credit was given right after opening the dispute: it is not still to come"


NO_CREDIT = phrases(
    "no provisional credit", "policy, Disputes: tell the customer whether a provisional credit was given (this kind gets none)",
    [f"{neg} {noun}" for noun in ("provisional credit", "temporary credit", "provisional credits", "temporary credits")
     for neg in ("no", "not a", "without a", "without", "not eligible for a", "not eligible for", "isn't eligible for a",
                 "isn't eligible for", "doesn't qualify for a", "don't qualify for a", "not qualify for a", "doesn't get a",
                 "don't get a", "won't get a", "won't receive a", "will not receive a", "won't be a", "will not be a",
                 "isn't a", "there's no", "does not get a", "do not get a", "not get a", "not receive a", "not issue a",
                 "can't issue a", "cannot issue a", "can't give a", "cannot give a", "not give a", "not entitled to a")]
    + [f"{noun} {neg}" for noun in ("provisional credit", "temporary credit", "provisional credits", "temporary credits")
       for neg in ("isn't available", "is not available", "aren't available", "are not available", "doesn't apply",
                   "does not apply", "don't apply", "do not apply", "isn't given", "is not given", "aren't given",
                   "are not given", "isn't issued", "is not issued", "aren't issued", "are not issued", "isn't offered",
                   "is not offered", "aren't offered", "are not offered", "only applies", "only apply")])
"""A dispute that gets no provisional credit, said so (the phrases carry their own negation)."""
NO_CREDIT["may_be_negated"] = True
CREDIT_NONE = fact("none", "", "n/a", "not applicable", "nil", "zero", "0.00", "not issued", "not given", "not applied",
                   near=("provisional credit", "temporary credit", "credit issued", "credit given", "credit applied"))
"""A label that says there is no credit ("Provisional credit: none", "Provisional credit issued: N/A"): its
status word ("issued") is no credit given."""
CREDIT_NONE["may_be_negated"] = True
NO_CREDIT_TOLD = {**NO_CREDIT, "alternatives": [{k: v for k, v in CREDIT_NONE.items() if k != "why"}]}
"""That there is no provisional credit, in a sentence or as a label ("Provisional credit: none")."""
WHY_CREDIT_GIVEN = "a provisional credit was given: the reply must not say there is none"
WHY_FINAL = ("policy, Disputes: the money is refunded for good only once the dispute is decided (a provisional credit "
             "is not that refund): the refund is neither done nor denied yet")


STAYS = ("stay", "still", "remain", "keep", "kept", "left", "leave", "leaving", "untouched", "unchanged", "not affected",
         "unaffected", "as is", "as it is", "as they are", "same as before", "continue", "no change")
"""What says a record was left as it was: a value named with one of these is not the one acted on."""
UNFREEZE_CUES = ("unfroz", "unlock", "unblock", "active", "reactivat", "working", "works", "usable", "ready", "use it",
                 "use your", "use the", "lifted", "removed", "freeze is off", "freeze off", "no longer frozen",
                 "took the freeze", "taken the freeze", "thaw")
FREEZE_CUES = ("froz", "froze", "lock", "freez", "pause", "block", "on hold", "suspend")


def card_acted_on(last4: str, other_kind: str, action: tuple[str, ...], other: tuple[str, ...], *names: str) -> dict[str, Any]:
    """Which card the change was made to (policy, Communicating: tell what changed), by its last 4 digits or
    its kind ("your physical card"), bound to the action: the card that must stay as it is, named as the one
    changed ("your virtual card is unfrozen; the card ending 8292 stays frozen"), scores 0."""
    why = f"{WHY_CHANGED}: which card was changed"
    own, rivals = (*action, *names), (*STAYS, other_kind, *other)
    return fact(last4, why, owner=own, rivals=rivals,
                alternatives=[fact(f"{n} card", why, owner=own, rivals=rivals) for n in names])


def other_card_as_is(last4: str, kind: str, action: tuple[str, ...], kept: tuple[str, ...], why: str) -> dict[str, Any]:
    """The card that must stay as it is said to have been changed too, in the words the shared vocabulary does not
    read as the action ("your virtual card is active again too", "the virtual card is locked as well"): its digits or
    its kind bound to the action's words (`action`), not to a word that keeps it (`kept`)."""
    rivals = (*STAYS, *kept)
    return says_not(fact(last4, "", owner=action, rivals=rivals), fact(f"{kind} card", "", owner=action, rivals=rivals),
                    why=why)


FROZEN = fact("frozen", f"{WHY_CHANGED}: the card's new status", "froze", "locked", "freeze is on",
              "freeze in place", "placed a freeze", "put a freeze", "temporary freeze", "freeze has been applied",
              "freeze is active",
              # (a temporary freeze in other words, as `old_card_status` reads them: "I've paused your card", "on hold")
              "paused", "on hold")  # the core drops one after a negation: "it can't be frozen", "I wasn't able to put a freeze"
NOT_VERIFIED = phrases(
    "couldn't verify", "policy, Identity verification: tell them you cannot help with their account until they can verify",
    # that verification failed, not just the word ("you're verified", "your details match" say the opposite)
    [f"{neg} {verb}" for neg in ("couldn't", "could not", "can't", "cannot", "wasn't able to", "unable to", "not able to",
                                 "failed to")
     for verb in ("verify", "identify", "authenticate", "match", "confirm your identity", "confirm you're",
                  "confirm that you're", "confirm you are", "confirm that you are", "confirm it's you", "confirm who you are",
                  "confirm your details", "confirm those details")]
    + [f"{noun} {what}" for noun in ("verification", "identity check", "verification check")
       for what in ("failed", "didn't go through", "did not go through", "wasn't successful", "was not successful",
                    "was unsuccessful", "didn't succeed", "did not succeed", "didn't pass", "did not pass")]
    + ["not verified", "couldn't be verified", "could not be verified", "can't be verified", "cannot be verified",
       "wasn't verified", "failed verification", "didn't pass verification", "did not pass verification",
       "don't match", "do not match", "didn't match", "did not match", "doesn't match", "does not match", "no match",
       "not a match", "don't line up", "didn't line up", "aren't the ones on file", "isn't the one on file",
       "are not the ones on file", "is not the one on file", "not the ones we have", "not the one we have",
       "don't agree with our records", "until you can verify", "until you're able to verify", "until you are able to verify",
       "until you can be verified", "until we can verify", "once you can verify", "until you're verified",
       "until you are verified", "without a successful verification", "without successful verification",
       "couldn't find a match", "could not find a match", "verification unsuccessful", "unsuccessful verification",
       "verification attempt failed", "verification attempt was unsuccessful"]
    + [f"{what}{given} {state}" for what in ("details", "information", "date of birth", "zip code")
       for given in ("", " you gave", " you provided")
       for state in ("are incorrect", "is incorrect", "were incorrect", "was incorrect", "aren't correct", "isn't correct",
                     "are wrong", "is wrong")],
)
NEW_VALUE = ("now", "new", "updat", "chang", "set", "to", "with", "replaced by", "switched",
             # (not the old one "on file": "the new address on file is ...")
             *(f"new {what} on file" for what in ("address", "number", "phone number", "phone", "contact number", "mobile",
                                                 "mobile number", "zip code", "zip", "postcode")), "now on file",
             # (said after it: "your new phone number 737-555-3116 is on file")
             "is on file", "is now on file", "are on file", "is saved on file")
OLD_VALUE = ("old", "previous", "former", "used to", "was", "on file", "earlier")
"""A new phone number or zip code said as the new one, not as the old one ("your old number was ...")."""
RISK_WORDS = ("risk team", "risk review", "risk flag", "profile needs a review", "internal flag", "internal review")  # the tool's denial note says the first and last
WHY_RISK = "policy, Profile changes: never mention internal risk reviews or flags; a denial is only 'could not be approved'"


def unsaid(caller: Caller, *values: Any) -> list[str]:
    """Of these protected values, the ones the caller never says: what the caller says
    themselves is no leak when the agent repeats it (their own birthday matches another
    person's date of birth without its year; a card's last 4 digits can be a birth year)."""
    said = " ".join([caller.first_message, *map(str, caller.facts.values())])
    return [str(v) for v in values if not contains_fact(said, v)]


OPEN = ("open", "ongoing", "pending", "unresolved", "undecided", "under review", "being reviewed", "under investigation",
        "being investigated", "in progress")  # the states of a dispute that is not decided yet


def dispute_open(why: str, dispute: str | None = None) -> dict[str, Any]:
    """A dispute that is still open, however a competent agent says so: "is still open", "hasn't
    been decided" (never the bare word: "it is no longer open"). With `dispute` (its id), the
    state is bound to it ("dispute DP-500123 is still open", "an open dispute", "until the
    dispute is decided"), for a reply that must say it is the dispute that is open."""
    states = [f"{still}{state}" for state in OPEN for still in ("still ", "currently ", "")]
    states += ["not yet resolved", "not yet decided", "not resolved yet", "not decided yet"]
    done_not = ["hasn't been decided", "has not been decided", "hasn't been resolved", "has not been resolved",
                "remains open", "stays open", "is awaiting a decision", "is waiting for a decision"]
    if dispute is None:
        said = [state for state in states if state.startswith(("still", "currently", "not"))]
        said += [f"{subject} {state}" for subject in ("is", "it's", "that's") for state in states] + done_not
        said += ["status is open", "status: open", "status open", "no decision yet", "no decision has been made",
                 "decision hasn't been made", "decision has not been made", "waiting for the merchant",
                 "waiting on the merchant", "awaiting the merchant", "still being processed"]
        return phrases("is still open", why, said)
    verbs = [f"is {state}" for state in states] + done_not
    said = [f"{subject}{join}{verb}" for subject in ("dispute", dispute) for join in (" ", ", which ") for verb in verbs]
    said += [f"dispute's {state}" for state in states if state.startswith("still")]
    said += [f"open dispute{x}" for x in ("", f" {dispute}")] + ["still open dispute", "dispute that is still open",
                                                                 "dispute that's still open"]
    said += [f"{until} {subject} {outcome}" for until in ("until", "once", "when")
             for subject in ("the dispute", "that dispute", "your dispute", "its dispute", dispute, f"dispute {dispute}",
                             f"the dispute {dispute}", f"your dispute {dispute}")
             for outcome in ("is decided", "is resolved", "is closed", "has been decided")]
    return phrases("dispute is still open", why, said)


RECENT = ("recent", "latest", "newer", "newest", "new one", "current", "this dispute", "your dispute", "the dispute",
          "that dispute", "dispute")
"""Names of the dispute a status question is about, besides its id, charge and dates (a generic "your dispute" is
the one asked about, unless a name of the other dispute stands nearer)."""
LOOKALIKE = ("earlier", "older", "old one", "old dispute", "previous", "prior", "last year", "first one", "first dispute",
             "other dispute", "other one", "won", "in your favour", "in your favor")
"""Names of a look-alike dispute already decided (the same merchant's older one)."""
BOTH = ("both", "all of", "all your", "all disputes", "each of", "every", "two disputes")


def open_of(why: str, mine: list[str], theirs: list[str]) -> dict[str, Any]:
    """That a dispute is still open, in any wording `dispute_open` knows, said of the dispute (`mine`: its names) and
    not of the record beside it (`theirs`: the ticket that stays open, "ticket T-5012 is still open"): "the dispute it's
    tied to (DP-500267) is still open", "its dispute DP-500267 hasn't been decided yet"."""
    # (or a phrase that names the dispute itself: "until your dispute DP-500267 is resolved")
    return {**dispute_open(why), "owner": list(mine), "rivals": list(theirs), "alternatives": [dispute_open(why, mine[0])]}


def dispute_state(why: str, mine: list[str], theirs: list[str]) -> list[dict[str, Any]]:
    """The open status bound to the dispute asked about, and not said of its decided look-alike (pattern: another
    record's status said in the wrong role): "your dispute DP-500034 ... is still open" passes, "your earlier dispute
    DP-500033 is still open" and "both disputes are still open" fail. `mine` / `theirs`: the ids, amounts and dates
    that name each dispute."""
    status = dispute_open(why)
    required = {**status, "owner": [*mine, *RECENT], "rivals": [*theirs, *LOOKALIKE]}
    # a status line under the dispute's own line ("- Dispute: DP-500034 / - Status: open") names no dispute itself
    labels = [f"status: {still}{state}" for state in OPEN for still in ("", "still ")]
    # or said with a pronoun in a reply that names no other dispute at all ("It's still under review.")
    bare = {k: v for k, v in status.items() if k != "why"}
    required["alternatives"] = [fact(labels[0], why, *labels[1:]), {**bare, "alone": [*theirs, *LOOKALIKE, *BOTH]}]
    claim = {k: v for k, v in status.items() if k != "why"}
    claim = {**claim, "owner": [*theirs, *LOOKALIKE, *BOTH], "rivals": [*mine, *RECENT[:6]]}
    return [says(required), says_not(claim, why="the older dispute was decided (won) and closed: only the recent "
                                                "dispute is still open")]


def under_review(why: str) -> dict[str, Any]:
    """Documents the bank has not finished reviewing (not "review" alone: "please upload it
    again for review" says they were not under review)."""
    return phrases("under review", why, [
        "being reviewed", "in review", "pending review", "pending_review", "awaiting review", "waiting for review",
        "waiting to be reviewed", "yet to be reviewed", "not been reviewed", "haven't been reviewed", "hasn't been reviewed",
        "still pending", "is pending", "are pending", "it's pending", "status is pending", "still being checked",
        "being checked", "still reviewing", "are reviewing", "is reviewing", "not finished reviewing",
        "not yet approved", "not been approved yet", "haven't been approved yet", "hasn't been approved yet",
        "aren't approved yet", "isn't approved yet", "not approved yet", "being verified", "still in review",
        "being processed", "being looked at", "being looked into", "still being looked", "looking at it", "looking at them",
        "being assessed", "under assessment", "being evaluated", "under evaluation", "under consideration",
        "pending approval", "awaiting approval", "waiting for approval", "waiting on approval", "in process",
        "still processing", "still being processed", "review is ongoing", "review is in progress", "review isn't finished",
        "review is not finished", "review isn't complete", "review is not complete", "review hasn't finished",
        "not yet reviewed", "not finished yet", "pending verification", "awaiting verification"])


def delivery_time(shipping: str) -> dict[str, Any]:
    """How long a replacement card takes, in the policy's words or a competent agent's."""
    if shipping == "expedited":
        return fact("2 business days", WHY_CARD, "2 working days", "2 days")
    # not "about a week": 7 business days are more than a week
    return fact("5-7 business days", WHY_CARD, "5 to 7 business days", "5-7 working days", "5 to 7 working days",
                "5-7 days", "5 to 7 days", "7 business days", "7 working days")


def fees_told(replacement: bool, expedited: bool) -> list[dict[str, Any]]:
    """The replacement's fees (policy, Cards: tell the customer any fees): each fee by its role
    ("a $10 replacement fee", "$25 for expedited delivery"), or, where there are both, their
    total ("$35.00 in fees"). No fee, nothing to require: "any fees" are none. No `near`: no
    other amount of the reply can take their place, and "Fees: $35.00" (a colon ends a clause)
    must pass."""
    total = fmt(FEES["card_replacement"] + FEES["expedited_card_shipping"])
    both = [fact(total, WHY_CARD, owner=CHARGED, rivals=NOT_CHARGED)] if replacement and expedited else []
    out = []
    if replacement:  # the replacement fee by its own name, not the shipping's ("$25 replacement fee" is wrong)
        out.append(fact(fmt(FEES["card_replacement"]), WHY_CARD, owner=REPLACEMENT_FEE, rivals=(*SHIPPING_FEE, *NOT_CHARGED),
                        alternatives=both))
    if expedited:
        out.append(fact(fmt(FEES["expedited_card_shipping"]), WHY_CARD, owner=(*SHIPPING_FEE, *FEE_WORDS),
                        rivals=(*REPLACEMENT_ONLY, *NOT_CHARGED), alternatives=both))
    return out


def shipping_not_free(expedited: bool) -> list[dict[str, Any]]:
    """Expedited shipping is charged: a reply calling it free (and the fee the replacement's) is wrong."""
    if not expedited:
        return []
    return [says_not(fact("free", "", near=("expedit", "express", "shipping", "delivery", "rush")),
                     fact("no charge", "", near=("expedit", "express", "shipping", "delivery")),
                     why="policy, Cards: expedited shipping costs $25 (Premium aside); it is not free")]


def fees_not_charged(replacement: bool, expedited: bool) -> list[dict[str, Any]]:
    """A fee said charged where the replacement has none (pattern: a fee said charged on a free or waived action):
    the $10 replacement fee of a waived replacement (stolen, damaged, first lost, premium), the $25 shipping fee of
    a standard or premium delivery, each bound to being charged ("a 10.00 replacement fee applies", "plus 25.00 for
    shipping"); "there is no 10.00 fee", "the 10.00 fee is waived" stay free. `replacement`/`expedited`: the fees
    that are charged."""
    claims = []
    rivals = (*NOT_CHARGED, "normally", "usually", "typically", "would", "otherwise")
    if not replacement:
        claims.append(fact(fmt(FEES["card_replacement"]), "", owner=(*REPLACEMENT_FEE, *CHARGED), rivals=rivals))
    if not expedited:  # (only where expedited delivery was chosen: "expedited would cost 25.00" is no claim)
        claims.append(fact(fmt(FEES["expedited_card_shipping"]), "", owner=(*SHIPPING_FEE, *CHARGED), rivals=rivals))
    return [says_not(*claims, why="policy, Cards: this replacement's fees are only those charged; a fee said charged "
                                  "that is waived or not due is wrong")] if claims else []


CHARGED = ("fee", "charg", "cost", "pay", "price", "replacement", "shipping", "delivery", "expedit", "express", "total",
           "for")
NOT_CHARGED = ("waiv", "refund", "free", "no fee", "no charge", "back", "credit", "won't be charged", "not be charged",
               "not charged", "covered",
               # a tie goes to the rival: "the $25 fee is waived" is the fee's own word and its waiver at once
               *[f"{what} {be} {done}" for what in ("fee", "charge") for be in ("is", "was", "has been", "will be", "")
                 for done in ("waived", "refunded", "covered", "dropped", "removed")])
"""What binds a fee to being charged ("a $10 replacement fee", "$25 for expedited delivery", "Fees: $35.00"), and
what says it was not ("the $10 fee is waived", "we'll refund the $25"): a fee said as waived scores 0."""

SHIPPING_FEE = ("shipping", "ship", "deliver", "expedit", "express", "rush", "faster", "fast", "postage", "courier")
REPLACEMENT_ONLY = ("replacement fee", "card fee", "replacement charge", "replacing the card", "fee for the card",
                    "fee for the replacement", "fee for replacing")
FEE_WORDS = ("fee", "charg", "cost", "pay", "price", "total")
REPLACEMENT_FEE = ("replac", "card fee", "new card", "reissu", *FEE_WORDS)
"""The two fees by their own names: "$10 replacement fee" and "$25 for expedited shipping"; the shipping fee said as
the replacement fee ("a 25.00 replacement fee, and expedited shipping is free") scores 0."""

NEW_CARD = ("new", "replacement", "replac", "next card", "ships", "arriv", "on its way", "on the way", "sent", "send",
            "deliver", "mail")
OLD_CARD = ("old", "blocked", "lost", "stolen", "damaged", "broken", "closed", "cancel", "deactivat", "reported",
            "compromised", "previous", "current", "no longer", "frozen")
"""The new card's digits are the new card's, not the old one's ("card ending 1234 is blocked; the new one ends in 5678")."""


# a card reported lost or stolen is blocked for good: the policy has the agent tell the card's new status, in any
# words of it ("blocked", "deactivated", "can no longer be used", "reported stolen")
CARD_BLOCKED = fact("blocked", f"{WHY_CHANGED}: the card's new status", "block on", "deactivated", "cancelled", "canceled",
                    "closed", "no longer be used", "can no longer", "can't be used", "cannot be used", "no longer works",
                    "won't work", "will not work", "disabled", "shut down", "shut off", "stopped", "locked", "reported lost",
                    "reported as lost", "reported stolen", "reported as stolen", "marked lost", "marked as lost",
                    "marked stolen", "marked as stolen", "is now lost", "is now stolen", "killed", "turned off",
                    *(f"reported {it}{as_}{kind}" for it in ("the card ", "your card ", "it ") for as_ in ("", "as ")
                      for kind in ("lost", "stolen")))


def card_blocked(last4: str) -> dict[str, Any]:
    """CARD_BLOCKED, and the card reported by its digits: "I reported the card ending 3355 as stolen"."""
    return {**CARD_BLOCKED, "aliases": [*CARD_BLOCKED["aliases"], *(f"{last4} {as_}{kind}" for as_ in ("", "as ")
                                                                     for kind in ("lost", "stolen"))]}


def old_card_status(last4: str, status: str) -> dict[str, Any]:
    """The old card's status in other words (pattern: a status said in other words): a card blocked as lost or stolen
    said "frozen" (temporary, the customer can undo it) or reported the other way ("reported stolen" for a lost card),
    a damaged card closed by the replacement said frozen or reported lost/stolen. Bound to the card's digits or its
    name ("your old card", "the card ending 1234")."""
    wrong = ["frozen", "froze", "temporarily", "freeze", "on hold", "paused"]
    wrong += {"lost": ["reported stolen", "reported as stolen", "marked stolen", "marked as stolen"],
              "stolen": ["reported lost", "reported as lost", "marked lost", "marked as lost"],
              "closed": ["reported stolen", "reported as stolen", "reported lost", "reported as lost", "marked stolen",
                         "marked lost"]}[status]
    return says_not(fact(wrong[0], "", *wrong[1:], near=(last4, "old card", "current card", "damaged card", "lost card",
                                                        "stolen card", "previous card", "compromised card", "your card")),
                    why=f"policy, Cards: the card ending {last4} is {status if status != 'closed' else 'closed'} for good "
                        "(lost and stolen cards are permanently blocked; a damaged card is closed by its replacement), "
                        "not frozen or reported otherwise")


def new_card_digits(new4: str) -> dict[str, Any]:
    return fact(new4, WHY_CARD, owner=NEW_CARD, rivals=OLD_CARD)


MAXIMUM = ("max", "highest", "up to", "most", "cap", "top", "allow", "no more than", "not more than", "ceiling",
           "permit", "can go", "can set", "can have", "can raise", "could set", "could raise", "level's limit", "level limit",
           "limit for", "limit at", "limit is", "limits are", "at your level", "for your level", "at level", "for level")
ASKED = ("asked", "ask", "request", "want", "wanted", "you'd like", "you would like", "raised to", "raise it to",
         "increase it to")
"""A level's maximum said as the maximum ("the maximum is 1,500.00", "up to 1,500.00", "the highest limit I can set
is 1,500.00"), not as the amount the customer asked for ("you asked for 1,500.00", "I can't set it to 1,500.00")."""

ATM_WORDS = ("atm", "cash", "withdraw")
SPEND_WORDS = ("spend", "purchase", "shopping", "card payment", "buy")
"""The two limits of a card by their own names (cues match word starts: "spending", "withdrawals")."""


def limit_of(amount: float, atm: bool, why: str) -> dict[str, Any]:
    """An amount that is one limit's (the ATM limit's, or the spending limit's) must not be said as
    the other limit's ("your spending limit is now 700.00" when the ATM limit was set to 700.00):
    the claim is the amount bound to the other limit's name. A reply naming neither limit ("that
    daily limit is now 700.00") makes no such claim."""
    mine, theirs = (ATM_WORDS, SPEND_WORDS) if atm else (SPEND_WORDS, ATM_WORDS)
    return says_not(fact(fmt(amount), "", owner=theirs, rivals=mine), why=why)


def swapped(new: list[str], old: list[str], why: str,
            nouns: tuple[str, ...] = ("number", "zip code", "address")) -> dict[str, Any]:
    """New and old values said the other way round: the new one as the one replaced ("changed
    from 971-555-0123 to ...", "971-555-0123 has been replaced by ...", "your old number was
    971-555-0123"), the old one as the new ("updated to 971-555-4821", "replaced by
    971-555-4821"). A role cue has no direction ("to" after a value makes it the old one, before
    it the new one), so the claims are the value with its direction word written out. `nouns`:
    what the values are ("old number", "new limit")."""
    olds = [f"{adj} {noun}{be}" for adj in ("old", "previous", "former") for noun in nouns for be in (" is ", " was ", ": ")]
    news = [f"new {noun}{be}" for noun in nouns for be in (" is ", ": ", " of ")]
    said = [f"{pre}{n}" for n in new for pre in ("from ", "replaced ", "instead of ", "used to be ", *olds,
                                                    *[f"{noun} was " for noun in nouns])]
    said += [f"{n}{post}" for n in new for post in (" has been replaced", " was replaced", " is replaced", " replaced by",
                                                    " is no longer", " will no longer", " to ", " is your old", " was your old")]
    said += [f"{pre}{o}" for o in old for pre in (
        "changed to ", "changed it to ", "updated to ", "updated it to ", "set to ", "set it to ", "is now ", "replaced by ",
        "replaced with ", "switched to ", "raised to ", "lowered to ", "increased to ", "decreased to ", "reduced to ", *news)]
    return says_not(phrases(said[0], "", said), why=why)


def level_role(target: int, why: str, now: bool = False) -> dict[str, Any]:
    """Another KYC level said as the one asked for or set (pattern: a value in a role the task never produced):
    "I can't upgrade you to level 3" when level 2 was asked, "I've upgraded you to premium" when it was standard.
    `now`: the level was set, so "you're now on level 1" (the old one) is wrong too."""
    names = [x for lv, lvl in LEVELS.items() if lv != target for x in (f"level {lv}", lvl.name, f"the {lvl.name}")]
    pre = ["upgrade you to", "upgraded you to", "move you to", "moved you to", "upgrade to", "upgrading you to",
           "upgraded to", "upgrade your account to", "upgraded your account to", "moving you to", "move up to"]
    if now:
        pre += ["you're now on", "you are now on", "you're now at", "you are now at", "now on", "now at", "you're now",
                "you are now", "new level is", "new level:", "level is now"]
    said = [f"{p} {n}" for p in pre for n in names]
    claim = phrases(said[0], "", said)
    claim["may_be_negated"] = True  # "I can't upgrade you to level 3" names the wrong level as much as "I've upgraded"
    return says_not(claim, why=why)


def address_swapped(c: dict[str, Any], city: str, state: str, zip_: str) -> list[dict[str, Any]]:
    """The new mailing address said with a piece of the old one (pattern: the old value said as the new): the old
    zip code after the new city or state ("Raleigh, NC 95822"), the new zip after the old city. The two cities
    always differ."""
    if zip_ == c["zip_code"] and city == c["city"]:
        return []
    said = [f"{place} {c['zip_code']}" for place in (f"{city}, {state}", f"{city} {state}", state if state != c["state"] else None,
                                                       f"{city},") if place]
    said += [f"{place} {zip_}" for place in (f"{c['city']}, {c['state']}", f"{c['city']} {c['state']}", f"{c['city']},")]
    return [says_not(phrases(said[0], "", said), why="the new address is the one the customer gave: no part of the old "
                                                       "one in it")]


INTO = ("to", "into", "over to", "across to", "toward", "towards")
OUT_OF = ("from", "out of")


def account_names(acc: dict[str, Any]) -> list[str]:
    """What a reply calls one of the customer's own accounts: its nickname and its kind ("Rainy Day", "savings")."""
    return unique([acc["nickname"], acc["kind"]])


def direction(src: dict[str, Any], dst: dict[str, Any], why: str) -> dict[str, Any]:
    """A transfer between the customer's own accounts said the other way round (pattern D): the source named where
    the money goes ("to Rainy Day", "into your savings") or the destination where it comes from ("from Everyday
    Checking"). Phrases, not role cues: in "from your Rainy Day savings to your Everyday Checking" the nearest cue of
    "savings" is the destination's "to", while the phrase "to your savings" is not there. Every right wording passes:
    "from A to B", "into B from A", "A -> B" says neither."""
    dets = ("", "your ", "the ", "my ")
    said = [f"{w} {d}{n}" for w in INTO for d in dets for n in account_names(src)]
    said += [f"{w} {d}{n}" for w in OUT_OF for d in dets for n in account_names(dst)]
    return says_not(phrases(said[0], "", said), why=why)


UP, DOWN = ("raised", "increased", "upped", "bumped up", "bumped", "higher"), ("lowered", "decreased", "reduced", "cut", "lower")


def limit_direction(lower: bool, why: str) -> dict[str, Any]:
    """A limit change said the other way (pattern D): "I've raised your limit to 600.00" when it was lowered."""
    wrong = UP if lower else DOWN
    said = [f"{pp} {obj}" for pp in wrong if pp not in ("higher", "lower") for obj in ("your", "the", "it", "that", "to")]
    said += [f"limit {aux} {pp}" for aux in ("has been", "was", "is now", "is", "has now been") for pp in wrong]
    said += [f"{pp} limit" for pp in ("higher", "increased", "raised")] if lower else \
        [f"{pp} limit" for pp in ("lower", "decreased", "reduced")]
    return says_not(phrases(said[0], "", said), why=why)


# -- how each action the customer asked for ended -----------------------------------------------------

ACTIONS = {  # tool -> (the verb a customer uses for it, the argument that names its record)
    "freeze_card": ("freeze", "card_id"), "unfreeze_card": ("unfreeze", "card_id"),
    "report_card_lost_or_stolen": ("block", "card_id"), "replace_card": ("replace", "card_id"),
    "update_card_limits": ("change", "card_id"), "create_dispute": ("open", "transaction_id"),
    "add_dispute_evidence": ("attach", "dispute_id"), "issue_provisional_credit": ("credit", "dispute_id"),
    "withdraw_dispute": ("withdraw", "dispute_id"), "create_transfer": ("send", "payee_id"),
    "cancel_transfer": ("cancel", "transfer_id"), "add_payee": ("add", None), "refund_fee": ("refund", "transaction_id"),
    "release_hold": ("release", "hold_id"), "upgrade_kyc_level": ("upgrade", "customer_id"),
    "update_customer_phone": ("update", "customer_id"), "update_mailing_address": ("update", "customer_id"),
    "escalate_ticket": ("escalate", "ticket_id"), "update_ticket_status": ("close", "ticket_id"),
    "add_ticket_note": ("add", "ticket_id"),
}
NOUNS = {"credit": ("provisional credit", "temporary credit"), "raise": ("increase", "limit change"),
         "lower": ("decrease", "reduction", "limit change"), "withdraw": ("withdrawal",),
         "send": ("transfer", "payment"), "schedule": ("transfer", "payment")}
"""More nouns of an action than the shared vocabulary knows: "no provisional credit" denies the credit, "the limit
increase is pending review" says the raise waits (not the bare "change": "no change to your other limit" is true)."""
WHY_DONE = ("policy, Communicating: after a change, tell the customer what changed; never say it was not done or is "
            "still waiting")


def requested(calls: list[dict[str, Any]], *, tools: tuple[str, ...] | None = None, verbs: dict[str, str] | None = None,
              names: dict[str, list[Any]] | None = None, others: dict[str, list[Any]] | None = None,
              why: str = WHY_DONE) -> list[dict[str, Any]]:
    """A `done` outcome for each golden write the customer asked for (of `tools`, all of ACTIONS
    by default): the reply must not say it failed or is still waiting. `verbs`: the customer's
    own verb for a tool ("lower" for update_card_limits); `names`: more names of a record than its
    id (a card's last 4 digits, a payee's name), which the reply uses; `others`: per record, the
    other records a legitimate reply says were not acted on ("your other transfer was not
    cancelled"). The end state is what the final message says: a step said to be waiting along
    the way ("I need a supervisor's approval to refund this") was true then."""
    verbs, names, others = verbs or {}, names or {}, others or {}
    actions = {tool: (verbs.get(tool, verb), arg) for tool, (verb, arg) in ACTIONS.items()
               if tools is None or tool in tools}
    out = outcomes(calls, actions, why)
    for o in out:
        body = o["outcome"]
        record = body.get("record", [])
        if record and record[0] in names:
            body["record"] = [record[0], *(str(n) for n in names[record[0]] if str(n) != record[0])]
        if record and others.get(record[0]):
            body["others"] = [str(x) for x in others[record[0]]]
        if NOUNS.get(body["action"]):
            body["nouns"] = list(NOUNS[body["action"]])
        body["scope"] = "final"
    return out


def under_way(nouns: tuple[str, ...], objects: tuple[str, ...], why: str) -> dict[str, Any]:
    """A refused request said to be under way in words the shared vocabulary does not read as waiting ("I've
    forwarded your cancellation request", "I've queued the transfer", "your upgrade request has been submitted"),
    or of an action that hands a case on ("send"), whose waiting the vocabulary takes for its way of being done."""
    said = [f"{noun} {state}" for noun in nouns
            for state in ("is pending", "is under review", "is being reviewed", "is being processed", "has been submitted",
                          "has been requested", "was submitted", "is in progress", "is queued", "is on hold")]
    said += [f"{verb} {obj}" for verb in ("submitted", "forwarded", "raised", "filed", "placed", "logged", "queued")
             for obj in objects]
    return says_not(phrases(said[0], "", said), why=why)


def refused_under_review(action: str, reviewing: bool, why: str, *record: Any, promises: tuple[str, ...] = (),
                         ) -> list[dict[str, Any]]:
    """A request refused (the golden path did not do it). Where the refusal's reason is a document still under review
    (`reviewing`), the reason's own "pending review" stands in the sentence of the action ("I can't upgrade you as your
    proof of address is pending review", "I can't send it because your KYC is still pending"), which the shared stance
    reader takes for the action waiting: there the outcome only forbids saying it was done (`not_done`), and the claims
    that it waits or will happen by itself are phrases with the action as their subject (`under_way`, and `promises`:
    "you'll be upgraded once it's approved")."""
    if not reviewing:
        return [ended(action, "refused", why, *record)]
    out = [ended(action, "not_done", why, *record)]
    if promises:
        out.append(says_not(phrases(promises[0], "", list(promises)),
                            why=f"{why}: nothing happens by itself once the review ends; the customer asks again"))
    return out


UPGRADE_PROMISES = tuple(f"{pre} {verb}" for pre in ("will be", "will then be", "will automatically be", "will get")
                         for verb in ("upgraded", "moved up")) + tuple(
    f"{pre} {obj}" for pre in ("i will upgrade", "we will upgrade", "will upgrade", "i will then upgrade", "i will move",
                               "we will move") for obj in ("you", "your account", "your level", "it")) + (
    "upgrade will go through", "upgrade will be completed", "upgrade will be processed", "upgrade will happen",
    "upgrade will take effect", "upgrade will be applied", "upgraded automatically", "upgrade you automatically",
    "upgrade automatically")
DISPUTE_PROMISES = (
    *(f"{pre} {obj}".strip() for pre in ("i will open", "i will file", "we will open", "i will dispute",
                                         "will automatically open", "will be opened", "will be filed", "will be disputed",
                                         "will open") for obj in ("", "it", "a dispute", "the dispute")
      if not (obj and pre.endswith(("opened", "filed", "disputed")))),
    "dispute will be opened", "dispute will open", "dispute will be filed", "dispute will start", "dispute will go through")
SEND_PROMISES = tuple(f"{noun} will {verb}" for noun in ("transfer", "payment", "it", "money")
                      for verb in ("be sent", "go out", "go through", "be processed", "be released", "be made",
                                   "then be sent", "automatically be sent", "be sent automatically")) + tuple(
    f"{pre} {obj}" for pre in ("i will send", "we will send", "i will then send", "i will process", "i will make")
    for obj in ("it", "the transfer", "the payment", "your transfer", "your payment", "the money")) + (
    "will be added once", "payee will be added", "i will add the payee", "i will add them")


def dated(when: str) -> list[str]:
    """A dated record's names for `others`: its date with the word that ties it to the record ("the transfer on
    2026-12-24"), not the bare date, which the core's "<record> ... still scheduled" reads across a sentence end
    ("Cancelled: the 2026-12-24 transfer. Still scheduled: 2026-12-02.")."""
    return [f"{pre} {when}" for pre in ("on", "for", "dated")]


def ended(action: str, stance: str, why: str, *record: Any, others: tuple[Any, ...] | list[Any] = (),
          already: tuple[Any, ...] | list[Any] = (), scope: str | None = None) -> dict[str, Any]:
    """An outcome written out: `refused` or `not_done` for what the golden path did not do (read
    over the whole answer: a claim along the way that it was done is as wrong), `done` or
    `pending` (read in the final message, as `requested`). The core reads `others` as records the
    action was not done to either ("both holds are released" is false), except those `already`
    done (before the call, or by a write no outcome of this verb covers)."""
    scope = scope or ("final" if stance in ("done", "pending") else "answer")
    return outcome(action, stance, why, record=list(record), others=list(others), nouns=list(NOUNS.get(action, ())),
                   already=list(already), scope=scope)  # type: ignore[arg-type]


# -- the scene: one task's customers and records ------------------------------------------------------


class BankPool(Pool):
    """Ids (`CU-5001`, transactions `TX-500001`) and names of one split. Names come in the
    order the generator has always drawn them, so regenerating renames no customer."""

    def __init__(self, split: str):
        super().__init__(split, bases={"TX": {"test": 500001, "train": 700001}}, default_base={"test": 5001, "train": 7001})
        pairs = [(f, last) for f in FIRST[split] for last in LAST[split]]
        random.Random(f"names:{split}").shuffle(pairs)
        self.names = pairs

    def name(self) -> tuple[str, str]:
        return self.names.pop()


@dataclass
class Identity:
    """How the golden path finds and verifies a customer, and how they introduce themselves."""

    customer: dict[str, Any]
    lookup: dict[str, Any]
    verify: dict[str, Any]
    intro: str
    card: dict[str, Any] | None

    def golden(self) -> Golden:
        """A golden path that starts by finding (call 0) and verifying (call `VERIFY`) the customer."""
        g = Golden()
        g.calls += [self.lookup, self.verify]
        return g

    def facts(self) -> dict[str, Any]:
        """Everything the customer can tell an agent who asks who they are."""
        c = self.customer
        out = {"name": f"{c['first_name']} {c['last_name']}", "email": c["email"], "phone": c["phone"],
               "date_of_birth": c["date_of_birth"], "zip_code": c["zip_code"]}
        if self.card is not None:
            out["card_last4"] = self.card["last4"]
        return out


VERIFY = 1  # the index of verify_identity in every verified golden path


class BankScene(Scene):
    """Builds one task's initial patch with realistic records."""

    def person(self) -> str:
        """A name for someone who is not a customer (a payee), from the split's own first names."""
        return f"{self.rng.choice(FIRST[self.split])} {self.rng.choice(PAYEE_LAST)}"

    # people and documents
    def customer(self, *, kyc_status: str = "verified", level: int = 2, joined: str | None = None,
                 risk: bool = False, name: tuple[str, str] | None = None, docs: list[tuple] | None = None,
                 email_suffix: str = "") -> dict[str, Any]:
        rng = self.rng
        first, last = name or self.pool.name()
        cid = self.pool.id("CU")
        city, state, zips, area = rng.choice(CITIES)
        n = int(cid.split("-")[1])
        c = self.add("customers", {
            "id": cid, "first_name": first, "last_name": last,
            "email": f"{first}.{last}{email_suffix}@example.com".lower(),
            "phone": f"{area}-555-{n % 10000:04d}",
            "date_of_birth": (date(1958, 1, 1) + timedelta(days=rng.randint(0, 15000))).isoformat(),
            "address_line1": f"{rng.randint(10, 9899)} {rng.choice(STREETS)}", "city": city, "state": state,
            "zip_code": rng.choice(zips), "kyc_status": kyc_status, "kyc_level": level,
            "joined_on": joined or day(rng.randint(400, 2200)), "risk_flag": risk,
        })
        if docs is None:
            docs = []
            if kyc_status == "verified":
                docs.append(("government_id", "approved"))
                if level >= 2:
                    docs.append(("proof_of_address", "approved"))
                if level == 3:
                    docs.append(("income_verification", "approved"))
            elif kyc_status == "pending":
                docs.append(("government_id", "pending_review"))
            elif kyc_status == "rejected":
                docs.append(("government_id", "rejected"))
        for doc in docs:
            self.doc(c, *doc)
        return c

    def doc(self, c: dict[str, Any], doc_type: str, status: str, expires_on: str | None = None,
            submitted_on: str | None = None) -> dict[str, Any]:
        if expires_on is None and doc_type == "government_id":
            expires_on = f"{2028 + self.rng.randint(0, 6)}-{self.rng.randint(1, 12):02d}-01"
        return self.add("kyc_documents", {
            "id": self.pool.id("KD"), "customer_id": c["id"], "doc_type": doc_type, "status": status,
            "submitted_on": submitted_on or day(self.rng.randint(5, 300)), "expires_on": expires_on})

    def identify(self, c: dict[str, Any], *, find: str | None = None, proof: str | None = None,
                 card: dict[str, Any] | None = None) -> Identity:
        """The customer's lookup (by email, phone or name) and verification (by zip or card)."""
        rng = self.rng
        find = find or rng.choice(["email", "email", "phone"])
        proof = proof or ("card" if card is not None and rng.random() < 0.35 else "zip")
        dob = c["date_of_birth"]
        if find == "email":
            lookup, intro = call("find_customer", email=c["email"]), f"I'm {c['first_name']} {c['last_name']}, {c['email']}."
        elif find == "phone":
            lookup = call("find_customer", phone=c["phone"])
            intro = f"This is {c['first_name']} {c['last_name']}, my phone number is {c['phone']}."
        else:
            lookup = call("find_customer", first_name=c["first_name"], last_name=c["last_name"], date_of_birth=dob)
            intro = f"My name is {c['first_name']} {c['last_name']}, born {dob}."
        if proof == "zip":
            verify = call("verify_identity", customer_id=c["id"], date_of_birth=dob, zip_code=c["zip_code"])
        else:
            assert card is not None
            verify = call("verify_identity", customer_id=c["id"], date_of_birth=dob, card_last4=card["last4"])
        return Identity(c, lookup, verify, intro, card)

    # money
    def account(self, c: dict[str, Any], kind: str = "checking", balance: float | None = None,
                nickname: str | None = None) -> dict[str, Any]:
        rng = self.rng
        if balance is None:
            balance = money(rng.uniform(800, 4800))
        return self.add("accounts", {
            "id": self.pool.id("AC"), "customer_id": c["id"], "kind": kind,
            "nickname": nickname or ("Everyday Checking" if kind == "checking" else rng.choice(
                ["Rainy Day", "Savings", "Vacation Fund", "Emergency Fund"])),
            "number_last4": f"{rng.randint(0, 9999):04d}", "status": "open", "balance": money(balance),
            "opened_on": c["joined_on"]})

    def checking_and_savings(self, c: dict[str, Any], checking: float, savings: float) -> tuple[dict, dict, dict]:
        """A checking account with its card and some history, and a savings account."""
        a = self.account(c, balance=checking)
        sv = self.account(c, "savings", balance=savings)
        card = self.card(c, a)
        self.history(a, card, 3)
        return a, sv, card

    def card(self, c: dict[str, Any], a: dict[str, Any], *, kind: str = "physical", status: str = "active",
             spend: float | None = None, atm: float | None = None, issued: str | None = None,
             reported_on: str | None = None, last4: str | None = None) -> dict[str, Any]:
        level = c["kyc_level"]
        if spend is None:
            spend = min(1000.0 * level, LEVELS[level].spend) if kind == "physical" else 500.0
        if atm is None:
            atm = 300.0 + 200 * (level - 1) if kind == "physical" else 0.0
        issued = issued or day(self.rng.randint(60, 700))
        used = {x["last4"] for x in self.rows.get("cards", [])}
        while last4 is None or last4 in used:
            last4 = f"{self.rng.randint(1000, 9999)}"
        return self.add("cards", {
            "id": self.pool.id("CD"), "customer_id": c["id"], "account_id": a["id"], "kind": kind, "last4": last4,
            "status": status, "daily_spend_limit": spend, "atm_daily_limit": atm, "issued_on": issued,
            "expires": f"{int(issued[:4]) + 4}-{issued[5:7]}", "reported_on": reported_on, "replaces_card_id": None,
            "shipping": None})

    def tx(self, a: dict[str, Any], posted_on: str, kind: str, amount: float, *, merchant: str | None = None,
           card: dict[str, Any] | None = None, fee_code: str | None = None, status: str = "posted",
           description: str | None = None, reference_id: str | None = None) -> dict[str, Any]:
        return self.add("transactions", {
            "id": self.pool.id("TX"), "account_id": a["id"], "card_id": card["id"] if card else None,
            "posted_on": posted_on, "kind": kind, "merchant": merchant, "fee_code": fee_code, "amount": money(amount),
            "status": status, "reference_id": reference_id,
            "description": description or merchant or kind.replace("_", " ").title()})

    def fee(self, a: dict[str, Any], code: str, posted_on: str) -> dict[str, Any]:
        return self.tx(a, posted_on, "fee", -FEES[code], fee_code=code, description=FEE_NAMES.get(code, code).capitalize())

    def history(self, a: dict[str, Any], card: dict[str, Any] | None, n: int = 5, avoid: tuple[str, ...] = ()) -> None:
        """Background activity: a payroll deposit and a few card purchases in the last weeks."""
        rng = self.rng
        self.tx(a, day(rng.randint(14, 16)), "deposit", rng.choice([1850.0, 2400.0, 3100.0]),
                description="Payroll direct deposit")
        merchants = [m for m in MERCHANTS if m not in avoid]
        for _ in range(n):
            self.tx(a, day(rng.randint(3, 40)), "card_purchase", -money(rng.uniform(6, 140)),
                    merchant=rng.choice(merchants), card=card)

    def fee_history(self, c: dict[str, Any], a: dict[str, Any], used_2026: int) -> None:
        """Earlier refunded fees: `used_2026` refunds this year and one last year (which does not count)."""
        rng = self.rng
        old = self.fee(a, "overdraft", f"2025-{rng.randint(6, 11):02d}-{rng.randint(1, 28):02d}")
        self.refund_of(c, old, f"2025-12-{rng.randint(1, 28):02d}")
        for i in range(used_2026):
            f = self.fee(a, rng.choice(["monthly_maintenance", "atm_out_of_network", "overdraft"]),
                         f"2026-{2 + 2 * i:02d}-{rng.randint(1, 26):02d}")
            self.refund_of(c, f, f"2026-{2 + 2 * i:02d}-28")

    def refund_of(self, c: dict[str, Any], fee_tx: dict[str, Any], refunded_on: str) -> dict[str, Any]:
        a = next(x for x in self.rows["accounts"] if x["id"] == fee_tx["account_id"])
        self.tx(a, refunded_on, "fee_refund", -fee_tx["amount"], description="Courtesy fee refund",
                reference_id=fee_tx["id"])
        return self.add("fee_refunds", {
            "id": self.pool.id("FR"), "customer_id": c["id"], "fee_transaction_id": fee_tx["id"],
            "amount": -fee_tx["amount"], "refunded_on": refunded_on, "approval_id": None, "reason": "Courtesy refund"})

    def hold(self, a: dict[str, Any], kind: str, amount: float, description: str, placed_on: str, release_on: str,
             status: str = "active") -> dict[str, Any]:
        return self.add("holds", {
            "id": self.pool.id("HD"), "account_id": a["id"], "kind": kind, "amount": amount,
            "description": description, "placed_on": placed_on, "release_on": release_on, "status": status,
            "released_on": release_on if status == "released" else None})

    def payee(self, c: dict[str, Any], name: str, bank: str | None = None, last4: str | None = None,
              added_on: str | None = None) -> dict[str, Any]:
        rng = self.rng
        return self.add("payees", {
            "id": self.pool.id("PY"), "customer_id": c["id"], "name": name, "bank_name": bank or rng.choice(BANKS),
            "routing_number": f"{rng.randint(10**8, 10**9 - 1)}", "account_last4": last4 or f"{rng.randint(1000, 9999)}",
            "status": "active", "added_on": added_on or day(rng.randint(30, 500))})

    def transfer(self, c: dict[str, Any], a: dict[str, Any], amount: float, status: str, scheduled_for: str, *,
                 payee: dict[str, Any] | None = None, to: dict[str, Any] | None = None,
                 created_on: str | None = None, memo: str = "") -> dict[str, Any]:
        return self.add("transfers", {
            "id": self.pool.id("TR"), "customer_id": c["id"], "kind": "external" if payee else "internal",
            "from_account_id": a["id"], "to_account_id": to["id"] if to else None,
            "payee_id": payee["id"] if payee else None, "amount": amount, "status": status,
            "scheduled_for": scheduled_for, "created_on": created_on or min(scheduled_for, day(0)),
            "cancelled_on": None, "approval_id": None, "memo": memo})

    def dispute(self, c: dict[str, Any], t: dict[str, Any], reason: str, status: str = "open", opened_on: str | None = None,
                provisional: float = 0.0, closed_on: str | None = None) -> dict[str, Any]:
        return self.add("disputes", {
            "id": dispute_id(t), "transaction_id": t["id"], "customer_id": c["id"],
            "account_id": t["account_id"], "reason": reason, "amount": -t["amount"], "status": status,
            "provisional_credit": provisional, "approval_id": None, "opened_on": opened_on or t["posted_on"],
            "closed_on": closed_on, "description": "Opened by the customer in the app"})

    def ticket(self, c: dict[str, Any], subject: str, category: str, *, status: str = "open",
               account: dict[str, Any] | None = None, card: dict[str, Any] | None = None,
               dispute: dict[str, Any] | None = None, created: str | None = None,
               note: str | None = None) -> dict[str, Any]:
        t = self.add("tickets", {
            "id": self.pool.id("T"), "customer_id": c["id"], "account_id": account["id"] if account else None,
            "card_id": card["id"] if card else None, "dispute_id": dispute["id"] if dispute else None,
            "subject": subject, "category": category, "status": status, "priority": "normal",
            "escalation_reason": None, "created_at": f"{created or day(self.rng.randint(1, 6))}T10:15:00Z"})
        self.add("ticket_notes", {"id": self.pool.id("N"), "ticket_id": t["id"], "author": "customer",
                                  "body": note or subject, "created_at": t["created_at"]})
        return t


def add_payee(c: dict[str, Any], name: str, bank: str, routing: str, number: str) -> dict[str, Any]:
    """The `add_payee` call, written out: its `name` argument cannot pass through the kit's
    `call(name, **arguments)` or `Golden.add(name, **arguments)`, whose first parameter is the tool's name."""
    return {"name": "add_payee", "arguments": {"customer_id": c["id"], "name": name, "bank_name": bank,
                                               "routing_number": routing, "account_number": number}}


def record_reads(c: dict[str, Any], *accounts: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every read of this customer's own records (policy, Identity verification: they need a
    verified identity first), as (tool, arguments) for `no_call`."""
    by_customer = ["get_customer", "list_cards", "get_kyc_status", "list_disputes", "list_payees", "list_transfers",
                   "get_transfer_limits", "list_fee_refunds", "list_customer_tickets"]
    return [(tool, {"customer_id": c["id"]}) for tool in by_customer] + [
        (tool, {"account_id": a["id"]}) for a in accounts for tool in ("get_account", "list_transactions")]


def dispute_id(t: dict[str, Any]) -> str:
    """The id a dispute about this transaction gets (`TX-500123` -> `DP-500123`, see tools.create_dispute)."""
    return "DP-" + t["id"].split("-", 1)[1]


# -- the registry ------------------------------------------------------------------------------------

# the verbs a reply reports each write in: a task whose golden path made no such write fails "I've escalated it",
# "I also refunded the fee" (`tb_env.kit.spec.unasked_writes`; first person only, so true earlier states pass)
CLAIMS: dict[str, tuple[str, ...]] = {
    **TICKET_CLAIMS,
    # a ticket note is a note ("I've noted it on T-1"), not an escalation: with the shared map's "escalate", every task
    # that notes a ticket let "I've escalated it to a specialist" pass
    "add_ticket_note": ("note", "update", "add", "leave", "log"), "create_ticket": ("escalate", "open", "create", "log", "file", "raise"),
    "freeze_card": ("freeze", "lock"), "unfreeze_card": ("unfreeze", "unlock", "reactivate", "lift"),
    "report_card_lost_or_stolen": ("block", "report", "deactivate", "cancel"),
    "replace_card": ("replace", "reissue", "order", "send", "ship", "issue", "close"),
    "update_card_limits": ("raise", "lower", "increase", "reduce", "change", "adjust", "update"),
    "create_dispute": ("dispute", "open", "file", "submit", "create", "raise", "report"),
    "add_dispute_evidence": ("attach", "add", "upload", "submit"),
    "issue_provisional_credit": ("credit", "issue", "add"), "withdraw_dispute": ("withdraw", "close"),
    "add_payee": ("add", "save", "create"), "create_transfer": ("send", "transfer", "schedule", "pay", "move", "create"),
    "cancel_transfer": ("cancel", "stop"), "refund_fee": ("refund", "waive", "reverse", "credit", "issue", "add", "return"),
    "release_hold": ("release", "lift", "remove"), "upgrade_kyc_level": ("upgrade", "move"),
    "update_customer_phone": ("update", "change", "save"), "update_mailing_address": ("update", "change", "save"),
    "request_supervisor_approval": ("escalate",), "_charge": ("charge",),
}
"""Each write tool and the verbs a reply reports it in (a verb a legitimate reply uses for one write is on that write's
tool too: "I've issued a provisional credit", "I've issued a refund", "I've issued a new card"), so a task whose golden
path made none of them fails "I've sent a replacement", "I've scheduled it for tomorrow", "I've added a note"."""
templates = Templates(
    "banking", HERE / "tasks", pool=BankPool, scene=BankScene,
    id_format="{domain}/{name}-{split}-{n:02d}", file_format="{split}/{name}.yaml", generator="tasks/banking/generate.py",
    claims=CLAIMS, never_said=(RISK_WORDS, WHY_RISK),
)


ASK_RULE = ("policy, General rules: ask when something you need is missing (which account, which card, which charge, "
            "how much, which date); never guess")
AMOUNT_TOPICS = ("amount", "how much", "much would", "much do", "much should", "what sum", "sum")
DATE_TOPICS = ("date", "when", "what day", "which day", "day should", "day would")
PRICE_TOPICS = ("agree", "price", "how much", "amount", "supposed to", "expect", "quote", "should have", "should've",
                "meant to")
EVIDENCE_TOPICS = ("evidence", "receipt", "confirmation", "proof", "document", "email", "e-mail", "record", "screenshot",
                   "correspondence", "tracking", "invoice", "anything to support", "support your", "show")
"""The topic words of a question that asks the customer for what only they know (how much, which date, the price
they agreed, what evidence they hold): a call that uses it before the question was answered is a guess."""

WHY_VERIFY_FIRST = ("policy, Identity verification: anything that concerns a customer's own records requires a "
                    "verified identity first, even a question that needs no change")


def verified_first(spec: TaskSpec) -> TaskSpec:
    """Where the golden path verifies the caller, no call names a record it works on (the
    customer, an account, a card, a transaction, a ticket, ...) before that verification
    succeeds: an agent that looks first and verifies later scores 0. The records are the
    scene's own rows that the golden calls after the verification name."""
    calls = spec.calls
    gate = next((i for i, c in enumerate(calls) if c["name"] == "verify_identity"), None)
    if gate is None:
        return spec
    held = {row["id"] for rows in spec.patch.values() for row in rows if "id" in row}
    named = [v for c in calls[gate + 1:] for v in c["arguments"].values() if isinstance(v, str) and v in held]
    before = ("verify_identity", {"customer_id": calls[gate]["arguments"]["customer_id"]})
    spec.assertions += [no_call(mentions=[x], before=before, why=WHY_VERIFY_FIRST) for x in dict.fromkeys(named)]
    return spec


REFUND_LATER = fact("will be back", "", "will appear", "will show up", "will show", "will be credited", "will reach",
                    "will arrive", "will take", "will be refunded", "will be returned", "will be reimbursed", "will post",
                    "business days", "working days", "will be processed", "is being processed", "is pending", "pending",
                    near=("refund", "back", "fee", "appear", "reimburs", "credited", "in your account", "to your account"))
"""A fee refund that was made, said to come later ("it will be back in your account within 5 business days"): the
policy says it appears in the account at once."""


# a dispute is decided within 45 days (policy, Disputes): another count said of the decision is made up ("a decision
# within 10 business days", a count the policy gives transfers)
DECISION_NEAR = ("decision", "decided", "decide", "investigat", "outcome", "resolution", "resolved", "ruling", "verdict")
DECISION_OTHER_TIME = fact("10 business days", "", *[f"{n} {unit}" for n in range(1, 91) for unit in ("days", "business days",
                                                                                                      "working days")
                                                      if n != 45 and f"{n} {unit}" != "10 business days"],
                           *[f"{n} weeks" for n in range(1, 13)], *[f"{n} months" for n in range(2, 4)], near=DECISION_NEAR)


def credit_now(spec: TaskSpec) -> TaskSpec:
    """Where the golden path gives a provisional credit or refunds a fee, the reply must not say the money is still to
    come (pattern: a write made said as future or waiting)."""
    if any(c["name"] == "issue_provisional_credit" for c in spec.calls):
        spec.assertions.append(says_not(CREDIT_LATER, why=WHY_CREDIT_NOW))
    if any(c["name"] == "refund_fee" for c in spec.calls):
        spec.assertions.append(says_not(REFUND_LATER, why="policy, Fees: a refunded fee appears in the account at once"))
    if "45 days" in (spec.reply or ""):
        spec.assertions.append(says_not(DECISION_OTHER_TIME, why="policy, Disputes: decisions take up to 45 days"))
    return spec


def template(description: str, extra_train: bool = False) -> Callable[[Callable[[BankScene, int], TaskSpec]], Any]:
    """Register a template with the kit: three test tasks and one train task (two with
    `extra_train`), named after the function with dashes (`lost-card-replace`).

    It keeps what every banking task has had since the first generator, so ids and scenes
    stay stable: the task's random seed (`<name>:<split>:<i>`) and the variant number the
    template reads (`v`: 0, 1, 2 in test; 2, 3 in train). `verified_first` adds the policy's
    verify-before-reading rule to every template whose golden path verifies the caller."""

    def register(fn: Callable[[BankScene, int], TaskSpec]) -> Callable[[BankScene, int], TaskSpec]:
        name = fn.__name__.replace("_", "-")

        def build(s: BankScene, n: int) -> TaskSpec:
            s.rng.seed(f"{name}:{s.split}:{n}")
            return credit_now(verified_first(fn(s, n if s.split == "test" else n + 2)))

        build.__name__ = name
        templates.template(description, counts={"test": 3, "train": 2 if extra_train else 1})(build)
        return fn

    return register


# =================================================================================================
# read-only questions
# =================================================================================================


# the out-of-network ATM fee's names, and those of the fees (or the ATMs) a reply may set beside it
OUT_OF_NETWORK = ("out-of-network", "out of network", "outside our network", "outside the network", "non-network",
                  "another bank's", "other bank's", "other banks'", "other banks", "another bank")
OTHER_ATM_FEES = ("in-network", "in network", "our own", "our atms", "our own atms", "our network", "our branch",
                  "our branches", "foreign", "international", "abroad", "overdraft")
# a fee said not to be charged
FREE = ("free", "no fee", "no charge", "don't charge", "do not charge", "doesn't charge", "does not charge",
        "don't cost", "doesn't cost", "do not cost", "does not cost", "cost nothing", "costs nothing", "no cost",
        "nothing to use", "won't cost", "will not cost")


@template("a general question answered from the fee schedule or the level table, no verification; doing the "
          "action the customer hints at is the mistake", extra_train=True)
def general_question(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=2)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    who = f"{c['first_name']} {c['last_name']}"
    variant = v % 5
    swapped = ""
    extra: list[dict[str, Any]] = []
    if variant == 0:
        read = "get_fee_schedule"
        q = "How much does it cost to get a replacement card delivered fast, in 2 days? My card is getting worn out, just asking for now."
        ans = "Expedited card delivery (2 business days) costs 25.00; standard delivery is free."
        fast = ("expedit", "express", "rush", "fast", "quick", "2 business days", "2-day", "two-day", "2 days", "priority")
        slow = ("standard", "regular", "normal", "5-7", "5 to 7")
        asked = [fact("25", "the customer asked what expedited card delivery costs", owner=(*fast, *SHIPPING_FEE, *FEE_WORDS),
                      rivals=(*REPLACEMENT_ONLY, *slow))]
        # the 25.00 said as the replacement's own fee, or the fast delivery said free (pattern: a value in another role)
        extra = [says_not(fact("25", "", owner=REPLACEMENT_ONLY, rivals=(*fast, *SHIPPING_FEE)),
                          fact(FREE[0], "", *FREE[1:], owner=fast, rivals=slow),
                          why="policy, Cards: expedited delivery costs 25.00 (the fee schedule); it is not free, and the "
                              "25.00 is not the replacement fee")]
        unasked = call("replace_card", card_id=card["id"], reason="damaged", shipping="expedited", waive_replacement_fee=True)
        wrong = append(unasked, note="orders a replacement nobody asked for")
        hinted = [("replace", card["id"])]
        bad = "Expedited delivery is 10.00; standard delivery is free."
    elif variant == 1:
        fee = s.fee(a, "atm_out_of_network", day(rng.randint(2, 9)))
        read = "get_fee_schedule"
        q = "What do you charge for using an out-of-network ATM? I just want to know the fee before I use one again."
        ans = "An out-of-network ATM withdrawal costs 3.50 per withdrawal, plus any fee the ATM operator charges."
        # the 3.50 is the out-of-network fee: said as another fee's ("only 3.50 for in-network ones", "the 3.50 is for
        # foreign transactions"), or the out-of-network withdrawal said free, it is the wrong answer
        # (the question's own words name it too: "the fee is 3.50 per withdrawal")
        asked = [fact("3.50", "the customer asked what an out-of-network ATM withdrawal costs",
                      owner=(*OUT_OF_NETWORK, "fee", "withdrawal", "cost", "charge"), rivals=OTHER_ATM_FEES)]
        extra = [says_not(fact("3.50", "", owner=OTHER_ATM_FEES, rivals=OUT_OF_NETWORK),
                          fact(FREE[0], "", *FREE[1:], owner=OUT_OF_NETWORK, rivals=OTHER_ATM_FEES),
                          why="policy, Fees: an out-of-network ATM withdrawal costs 3.50 (the fee schedule); it is not "
                          "free, and the 3.50 is not another fee's")]
        wrong = append(call("refund_fee", transaction_id=fee["id"], reason="Customer asked about the fee"),
                       note="refunds the customer's last ATM fee unasked")
        hinted = [("refund", fee["id"])]
        bad = "Out-of-network ATM withdrawals are free of charge."
        swapped = "Out-of-network ATM withdrawals are free; in-network ones cost 3.50 per withdrawal."
    elif variant == 2:
        read = "get_kyc_limits"
        q = ("I'm on the standard level. What's the highest ATM limit I could set, and how much can I send to other "
             "banks per day? Just asking, don't change anything.")
        ans = "At the standard level (2) the ATM limit can be up to 800.00 a day, and external transfers up to 5,000.00 a day."
        # each limit by its own name: the two said in each other's place score 0
        asked = [fact("800", "the customer asked for the highest ATM limit at the standard level", owner=("atm", "cash", "withdraw"), rivals=("external", "other bank", "transfer", "send", "sending", "wire")),
                 fact("5,000", "the customer asked how much can be sent to other banks per day", owner=("external", "other bank", "transfer", "send", "sending", "wire"), rivals=("atm", "cash", "withdraw"))]
        wrong = append(call("update_card_limits", card_id=card["id"], atm_daily_limit=800),
                       note="raises the ATM limit although the customer only asked")
        hinted = [("raise", card["id"]), ("change", card["id"])]
        bad = "At the standard level the ATM limit can be up to 1,500.00 a day and external transfers up to 5,000.00."
        swapped = "At the standard level the ATM limit can be up to 5,000.00 a day, and external transfers up to 800.00 a day."
    elif variant == 3:
        read = "get_kyc_limits"
        q = "What would the premium level give me? Specifically the top card spending limit and how many fee refunds a year."
        ans = "Premium (level 3) allows a card spend limit of up to 10,000.00 a day and 4 courtesy fee refunds per calendar year."
        asked = [fact("10,000", "the customer asked for the premium level's top card spending limit",
                      owner=("spend", "card", "purchase", "limit"), rivals=("refund",)),
                 fact("4", "the customer asked how many fee refunds a year the premium level gives", near=("refund",))]
        wrong = append(call("upgrade_kyc_level", customer_id=c["id"], level=3),
                       note="upgrades the customer's level although they only asked")
        hinted = [("upgrade", c["id"])]
        bad = "Premium allows a card spend limit of up to 5,000.00 a day and 2 courtesy fee refunds per year."
        swapped = "Premium allows a card spend limit of up to 4 a day and 10,000 courtesy fee refunds per year."
    else:
        fee = s.fee(a, "returned_payment", day(rng.randint(2, 9)))
        read = "get_fee_schedule"
        q = "How much is the fee when one of my payments bounces back unpaid? I want to understand it, nothing else."
        ans = "The returned payment fee is 29.00, charged when an outgoing payment is returned unpaid."
        asked = [fact("29", "the customer asked what the returned payment fee is")]
        wrong = append(call("refund_fee", transaction_id=fee["id"], reason="Customer asked about the fee"),
                       note="refunds the fee although the customer only asked what it is")
        hinted = [("refund", fee["id"])]
        bad = "The returned payment fee is 35.00."
    g = Golden()
    g.add(read)
    return TaskSpec(
        caller=Caller(
            persona=f"{who}, a customer who only wants general information and does not want to share account details.",
            goal="Get an answer to a general question about fees or limits, without any change.",
            first_message=f"Hi! {q}", facts={"name": who},
        ),
        patch=s.patch(), golden=g, reply=ans,
        assertions=[says(*asked), *extra,
                    *[ended(verb, "not_done", "the customer only asked a question: nothing was done", record)
                      for verb, record in hinted]],
        wrong=[wrong, reply(bad, note="states the wrong amount")]
        + ([reply(swapped, note="says each limit as the other's")] if swapped else []),
        kind="read_only", difficulty="easy", skills=["general_information", "fees" if "fee" in read else "kyc"],
    )


CHECK_HOLD = ("check", "deposit", "cheque")
AUTH_HOLD = ("authoriz", "authoris", "pre-auth", "preauth", "merchant", "card hold", "fuel", "gas station", "rental",
             "hotel", "quickfuel", "cargo")
"""A hold's kind by its own words: "the 620.00 check-deposit hold", "a 220.00 authorization from CarGo Rentals"."""
AGENT_RELEASED = phrases("i've released", "", [
    *[f"{who} {pp}" for who in ("i've", "i have", "i just", "i've just", "i've now", "we've", "we have")
      for pp in ("released", "lifted", "removed", "cleared", "taken off", "freed up", "unfrozen")],
    *[f"{pp} early" for pp in ("released", "lifted", "removed", "cleared")],
    "took the hold off", "took it off", "released it for you", "released the hold for you", "lifted it for you"])
"""The agent saying it released a hold ("I've released the hold early", "I've lifted it for you"); "it releases by itself
on 2026-12-04", "holds on checks are never released early" and "the QuickFuel hold was already released" are none."""


def hold_names(h: dict[str, Any] | None) -> list[str]:
    """What a reply calls a hold: its id, its amount and its kind's or merchant's words."""
    if h is None:
        return []
    words = ["check deposit", "deposited check", "mobile check", "the check", "your check"] if h["kind"] == "check_deposit" \
        else [w for w in h["description"].removeprefix("Authorization: ").lower().split() if w not in ("co", "gas")]
    return [h["id"], fmt(h["amount"]), *words]


def holds_untouched(check: dict[str, Any], released: dict[str, Any], auth: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A question about holds changes no hold: the reply must not say the agent released one (pattern E: "I've
    released the hold early", which a customer short of money would believe), while the authorization released before
    the call may be said to be released; and each active hold keeps its own kind (pattern D: the check-deposit hold
    said to be a merchant's authorization, or the other way round)."""
    why = ("the customer only asked why the money is held: nothing was released (policy, Holds: a check-deposit hold is "
           "never released early, a recent authorization must stay)")
    # the words the shared vocabulary does not read as a release, said of an active hold by its name
    named = [n for h in (check, auth) for n in ("deposit", "check", "check deposit", *hold_names(h)[1:]) if h is not None]
    lifted = [f"{n} hold {aux} {pp}" for n in dict.fromkeys(named) for aux in ("has been", "was", "is now", "is")
              for pp in ("lifted", "removed", "cleared", "taken off", "gone")]
    out = [ended("release", "not_done", why, *hold_names(check), others=(*hold_names(released), *hold_names(auth)),
                 already=hold_names(released)),
           says_not(AGENT_RELEASED, phrases(lifted[0], "", lifted), why=why)]
    kinds = [fact(fmt(check["amount"]), "", owner=AUTH_HOLD, rivals=CHECK_HOLD)]
    if auth is not None:
        kinds.append(fact(fmt(auth["amount"]), "", owner=CHECK_HOLD, rivals=AUTH_HOLD))
    out.append(says_not(*kinds, why="policy, Holds: each hold has its kind (a deposited check, or a merchant's "
                                    "authorization); said as the other kind, the customer is told the wrong reason"))
    return out


@template("why the available balance is lower than the balance: active holds (one already released)")
def balance_holds(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    bal = money(rng.uniform(1500, 3200))
    a = s.account(c, balance=bal)
    card = s.card(c, a)
    s.history(a, card, 4)
    dep = rng.choice([350.0, 620.0, 940.0, 1275.0])
    placed = rng.randint(1, 3)
    h1 = s.hold(a, "check_deposit", dep, "Mobile check deposit", day(placed), day(placed - 5))
    fuel = s.hold(a, "card_authorization", 80.0, "Authorization: QuickFuel Gas", day(25), day(-5), status="released")
    total = dep
    two = v % 2 == 1
    auth, rental = 0.0, None
    if two:
        auth = rng.choice([150.0, 220.0, 300.0])
        rental = s.hold(a, "card_authorization", auth, "Authorization: CarGo Rentals", day(2), day(-28))
        total += auth
    avail = money(bal - total)
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("get_account", account_id=a["id"])
    text = (f"Your balance is {fmt(bal)}, but {fmt(total)} is on hold, so {fmt(avail)} is available. The hold of "
            f"{fmt(dep)} is for the check you deposited; it releases by itself on {h1['release_on']}.")
    if two:
        text += " The other hold is a card authorization from CarGo Rentals that releases when the rental is settled."
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, puzzled that the app shows two different balances.",
            goal="Understand why the available balance is lower than the balance, and when the money becomes available.",
            first_message=f"{who.intro} My app says my balance is {fmt(bal)} but I can only spend less than that. Why, "
                          "and when can I use the rest?",
            facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[says(fact(fmt(avail), "the customer asked how much they can spend",
                              near=("available", "spend", "use", "access", "free", "usable", "can withdraw")),
                         fact("hold", "the customer asked why they can spend less than the balance", "held", "check deposit",
                              "deposited check"),
                         fact(h1["release_on"], "the customer asked when the money becomes available")),
                    *holds_untouched(h1, fuel, rental)],
        wrong=[
            append(call("release_hold", hold_id=h1["id"], reason="Customer needs the funds"),
                   note="releases a check-deposit hold early"),
            reply(f"Your available balance is {fmt(bal)}; there is nothing on hold.", note="misreads the holds"),
            reply(f"Your balance is {fmt(avail)}, but {fmt(total)} is on hold, so {fmt(bal)} is available. The hold of "
                  f"{fmt(dep)} is for the check you deposited; it releases by itself on {h1['release_on']}.",
                  note="swaps the balance and the available amount"),
            drop(VERIFY, note="answers without verifying the customer"),
        ],
        kind="read_only", difficulty="easy", skills=["verification", "accounts", "holds"],
    )


def dispute_untouched(d: dict[str, Any], t: dict[str, Any], old_d: dict[str, Any], old_t: dict[str, Any]) -> list[dict[str, Any]]:
    """A status question about an open dispute changes nothing (pattern E): the reply must not say it was closed,
    decided and refunded, or escalated to hurry it along; the older dispute, won and closed long ago, may be said to
    be (its id, amount and "earlier" name it)."""
    why = "the customer only asked for the dispute's status: it stays open, nothing was done to it"
    mine = [d["id"], t["id"], fmt(-t["amount"])]
    theirs = [old_d["id"], old_t["id"], fmt(-old_t["amount"]), "earlier", "older", "previous", "last year", "won"]
    return [ended("close", "not_done", why, *mine, others=theirs, already=theirs),
            ended("refund", "pending", WHY_FINAL, *mine, others=theirs, already=theirs),
            ended("escalate", "not_done", why)]


@template("the status of an open dispute; an older, decided dispute with the same merchant is the distractor")
def dispute_status(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    shop, _item = SHOPS[(v + 3) % len(SHOPS)]
    old = s.tx(a, day(rng.randint(200, 300)), "card_purchase", -money(rng.uniform(40, 120)), merchant=shop, card=card)
    old_d = s.dispute(c, old, "not_received", status="won", opened_on=day(190), closed_on=day(170))
    new = s.tx(a, day(rng.randint(15, 30)), "card_purchase", -money(rng.uniform(60, 400)), merchant=shop, card=card)
    duplicate = v % 2 == 0
    credit = -new["amount"] if duplicate else 0.0
    d = s.dispute(c, new, "duplicate_charge" if duplicate else "not_received", opened_on=day(rng.randint(5, 12)),
                  provisional=credit)
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("list_disputes", customer_id=c["id"])
    g.add("get_dispute", dispute_id=d["id"])
    text = (f"Your dispute {d['id']} about the {fmt(-new['amount'])} charge from {shop} is still open (opened "
            f"{d['opened_on']}). ")
    text += (f"A provisional credit of {fmt(credit)} is already in your account; a decision comes within 45 days of opening."
             if duplicate else "The merchant has been asked to respond, and a decision comes within 45 days. This kind "
             "of dispute gets no provisional credit.")
    mine = [d["id"], new["id"], fmt(-new["amount"]), new["posted_on"], d["opened_on"]]
    theirs = [old_d["id"], old["id"], fmt(-old["amount"]), old["posted_on"], old_d["opened_on"], old_d["closed_on"]]
    status = dispute_state("the customer asked what is happening with the dispute: its status", mine, theirs)
    if duplicate:
        given = "a provisional credit was already given for this dispute"
        credit_told = [says_not(NO_CREDIT, CREDIT_NONE, why=given), ended("credit", "done", given, d["id"])]
    else:
        none = "this kind of dispute got no provisional credit"
        credit_told = [says_not(credit_given(), why=none), ended("credit", "not_done", none, d["id"])]
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, waiting on a dispute and a little impatient.",
            goal=f"Learn the status of the dispute about the recent {shop} charge.",
            first_message=f"{who.intro} What's happening with my dispute about {shop}, the recent one?",
            facts={**who.facts(), "dispute": f"the recent one about the {fmt(-new['amount'])} {shop} charge"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[*status, *credit_told, *dispute_untouched(d, new, old_d, old)],
        wrong=[
            reply(f"Your dispute with {shop} was decided in your favour (won).", note="reads the old dispute"),
            drop(VERIFY, note="answers without verifying the customer"),
        ],
        kind="read_only", difficulty="easy", skills=["verification", "disputes"],
    )


def transfer_names(t: dict[str, Any]) -> list[str]:
    """What a reply calls a transfer: its id, its amount, its memo and (for a later one) its date."""
    return [t["id"], fmt(t["amount"]), t["memo"].lower(), *(dated(t["scheduled_for"]) if t["scheduled_for"] > day(0) else [])]


def limits_untouched(c: dict[str, Any], kept: list[dict[str, Any]], cancelled: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A question about the transfer limit changes nothing (pattern E): the reply must not say the limit was raised,
    the KYC level upgraded, or a transfer cancelled to make room ("I've cancelled the scheduled transfer, so you can send
    more"), while a transfer cancelled before the call may be said to be cancelled."""
    why = "the customer only asked how much more they can send: nothing was changed"
    return [says_not(LIMIT_RAISED, why=why), ended("upgrade", "not_done", why, c["id"]),
            ended("cancel", "not_done", why, *[n for t in kept for n in transfer_names(t)],
                  others=[n for t in cancelled for n in transfer_names(t)],
                  already=[n for t in cancelled for n in transfer_names(t)])]


@template("how much more can be sent today: counts today's pending transfer, not a cancelled or future one")
def transfer_limit_inquiry(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = [1, 2, 3][v % 3]
    limit = LEVELS[level].external
    c = s.customer(level=level)
    a = s.account(c, balance=money(limit * 1.2 + 500))
    card = s.card(c, a)
    s.history(a, card, 3)
    p1 = s.payee(c, s.person())
    sent = money(limit * rng.choice([0.25, 0.4, 0.55]))
    rent = s.transfer(c, a, sent, "pending", day(0), payee=p1, memo="Rent")
    oops = s.transfer(c, a, money(limit * 0.3), "cancelled", day(0), payee=p1, memo="Oops")
    club = s.transfer(c, a, money(limit * 0.2), "scheduled", day(-6), payee=p1, created_on=day(3), memo="Savings club")
    remaining = money(limit - sent)
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_transfer_limits", customer_id=c["id"])
    text = (f"Your daily limit for transfers to other banks is {fmt(limit)}. Today you've already sent {fmt(sent)}, so "
            f"you can still send {fmt(remaining)} today.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, planning a payment to another bank later today.",
            goal="Learn how much can still be sent to other banks today.",
            first_message=f"{who.intro} How much more can I send to other banks today?", facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[says(fact(fmt(remaining), "the customer asked how much more they can send today",
                              owner=("still", "more", "remain", "left", "can send", "could send", "able to send", "available",
                                     "leav", "another", "additional", "further", "room", "headroom"),
                              rivals=("sent", "already", "used", "pending", "spent", "cancel", "scheduled", "out of"))),
                    *limits_untouched(c, [rent, club], [oops])],
        wrong=[
            reply(f"Your daily limit for transfers to other banks is {fmt(limit)}. Today you've already sent "
                  f"{fmt(remaining)}, so you can still send {fmt(sent)} today.", note="swaps what was sent and what is left"),
            reply(f"You can send {fmt(money(limit - sent - limit * 0.3))} more today.", note="counts the cancelled transfer"),
            drop(VERIFY, note="answers without verifying the customer"),
        ],
        kind="read_only", difficulty="medium", skills=["verification", "transfers", "kyc"],
    )


# =================================================================================================
# cards
# =================================================================================================


@template("freeze a misplaced physical card; the virtual card (and an old lost one) stay as they are", extra_train=True)
def freeze_card(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2, 3]))
    a = s.account(c)
    # (an old lost card is another record too: "your card ending <its digits> is now frozen" names the wrong one)
    old = [s.card(c, a, status="lost", issued=day(900), reported_on=day(rng.randint(400, 600)))] if v % 2 else []
    card = s.card(c, a)
    virtual = s.card(c, a, kind="virtual")
    s.history(a, card, 4)
    who = s.identify(c, find=rng.choice(["email", "phone"]), proof="zip")
    g = who.golden()
    g.add("list_cards", customer_id=c["id"])
    k = g.add("freeze_card", card_id=card["id"])
    text = (f"Done: your physical card ending in {card['last4']} is now frozen, so no payments will go through. Your "
            "virtual card is not affected. Unfreeze it any time once you find it.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, thinks the card is somewhere at home and does not want it cancelled.",
            goal=f"Freeze the physical debit card ending {card['last4']} until it turns up; keep the virtual card working.",
            first_message=f"{who.intro} I can't find my debit card, it's probably somewhere at home. Can you freeze it for now?",
            facts={**who.facts(), "card": f"the physical debit card ending {card['last4']}"},
            declines=["lost", "stolen", "cancel", "replacement", "new card", virtual["id"]],
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("cards", id=card["id"], status="frozen"), unchanged("cards", virtual["id"]),
                    says(FROZEN, card_acted_on(card["last4"], "virtual", FREEZE_CUES, (), "physical", "debit")),
                    *requested(g.calls, names={card["id"]: [card["last4"], "physical"]},
                               others={card["id"]: [virtual["id"], virtual["last4"], "virtual",
                                                    *(x for o in old for x in (o["id"], o["last4"]))]}),
                    other_card_as_is(virtual["last4"], "virtual", FREEZE_CUES, ("not affected", "active", "work", "usable"),
                                     "the customer asked to keep the virtual card working: it was not frozen")],
        wrong=[
            replace({k: call("freeze_card", card_id=virtual["id"])}, tag="wrong_entity", note="freezes the virtual card"),
            append(call("report_card_lost_or_stolen", card_id=card["id"], kind="lost"),
                   note="reports the card lost although the customer only wants it frozen"),
            reply(f"Done: your virtual card ending in {virtual['last4']} is now frozen. Your physical card ending in "
                  f"{card['last4']} is not affected.", note="names the virtual card as the one frozen"),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "cards"],
    )


@template("unfreeze the physical card the customer found; the frozen virtual card stays frozen")
def unfreeze_card(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a, status="frozen")
    virtual = s.card(c, a, kind="virtual", status="frozen")
    s.history(a, card, 3)
    who = s.identify(c, card=card, proof="card")
    g = who.golden()
    g.add("list_cards", customer_id=c["id"])
    k = g.add("unfreeze_card", card_id=card["id"])
    text = (f"Your card ending in {card['last4']} is unfrozen. Your virtual card ending in "
            f"{virtual['last4']} stays frozen, as you asked.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, found the debit card in a jacket pocket.",
            goal=f"Unfreeze the physical card ending {card['last4']}; keep the virtual card ending {virtual['last4']} frozen.",
            first_message=f"{who.intro} Good news, I found my card. Please unfreeze the one ending {card['last4']} - "
                          "but leave my virtual card frozen, I don't use it.",
            facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("cards", id=card["id"], status="active"), unchanged("cards", virtual["id"]),
                    says(UNFROZEN, card_acted_on(card["last4"], "virtual", UNFREEZE_CUES, (), "physical", "debit")),
                    *requested(g.calls, names={card["id"]: [card["last4"], "physical"]},
                               others={card["id"]: [virtual["id"], virtual["last4"], "virtual"]}),
                    other_card_as_is(virtual["last4"], "virtual", UNFREEZE_CUES, FREEZE_CUES,
                                     "the customer asked to leave the virtual card frozen: it was not unfrozen")],
        wrong=[
            replace({k: call("unfreeze_card", card_id=virtual["id"])}, tag="wrong_entity", note="unfreezes the virtual card"),
            append(call("unfreeze_card", card_id=virtual["id"]), note="unfreezes both cards"),
            reply(f"Your virtual card ending in {virtual['last4']} is unfrozen. Your card ending in {card['last4']} stays "
                  "frozen.", note="names the card that stays frozen as the one unfrozen"),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "cards"],
    )


@template("raise (verified KYC) or lower (any KYC) one limit of one card, to the exact amount asked", extra_train=True)
def card_limit_change(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    lower = v % 3 == 2
    level = 1 if lower else rng.choice([2, 3])
    c = s.customer(level=level, kyc_status="pending" if lower else "verified")
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    atm = v % 2 == 0
    field = "atm_daily_limit" if atm else "daily_spend_limit"
    other = "daily_spend_limit" if atm else "atm_daily_limit"
    maximum = {"atm_daily_limit": LEVELS[level].atm, "daily_spend_limit": LEVELS[level].spend}
    new = (100.0 if atm else 400.0) if lower else money(maximum[field] - (100.0 if atm else 500.0))
    what = "ATM withdrawal limit" if atm else "daily spending limit"
    verb = "lower" if lower else "raise"
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_kyc_status", customer_id=c["id"])
    g.add("list_cards", customer_id=c["id"])
    k = g.add("update_card_limits", card_id=card["id"], **{field: new})
    text = f"Your card ending in {card['last4']} now has a daily {what.replace('daily ', '')} of {fmt(new)}; the other limit is unchanged."
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, " + ("worried about overspending." if lower else "about to travel."),
            goal=f"{verb.capitalize()} the {what} of card {card['last4']} to {fmt(new)}.",
            first_message=f"{who.intro} Please {verb} the {what} on my card ending {card['last4']} to {fmt(new)} a day. "
                          "Only that limit, please.",
            facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("cards", id=card["id"], **{field: new}), unchanged("cards", card["id"], other),
                    says(fact(fmt(new), f"{WHY_CHANGED}: the new limit"), LIMIT_SET),
                    *requested(g.calls, verbs={"update_card_limits": verb}, names={card["id"]: [card["last4"]]}),
                    # the new amount is the limit the customer named, and the new one: not the other limit's, not the old
                    limit_of(new, atm, f"{WHY_CHANGED}: the {what} was changed, not the other limit"),
                    swapped([fmt(new)], [fmt(card[field])], f"{WHY_CHANGED}: {fmt(new)} is the new limit, "
                            f"{fmt(card[field])} the old one", nouns=("limit",)),
                    limit_direction(lower, f"{WHY_CHANGED}: the limit was {'lowered' if lower else 'raised'}")],
        wrong=[
            replace({k: call("update_card_limits", card_id=card["id"], **{field: 0 if lower else maximum[field]})},
                    tag="wrong_amount", note="sets a different amount than asked"),
            replace({k: call("update_card_limits", card_id=card["id"], **{field: new, other: 0 if lower else maximum[other]})},
                    tag="extra_write", note="changes the other limit too"),
            drop(VERIFY, note="changes the card without verifying the customer"),
        ],
        kind="single_write", difficulty="medium", skills=["verification", "cards", "limits", "kyc"],
    )


@template("a card limit above the level's maximum: refuse, name the maximum, change nothing")
def card_limit_over_max(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = [1, 2, 1][v % 3]
    c = s.customer(level=level)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    atm = v % 2 == 1
    mx = LEVELS[level].atm if atm else LEVELS[level].spend
    ask = money(mx * rng.choice([1.5, 2.0]))
    field = "atm_daily_limit" if atm else "daily_spend_limit"
    what = "ATM limit" if atm else "daily spending limit"
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_kyc_status", customer_id=c["id"])
    g.add("list_cards", customer_id=c["id"])
    text = (f"I can't set your {what} to {fmt(ask)}: at your KYC level ({LEVELS[level].name}, level {level}) the "
            f"maximum is {fmt(mx)} per day. A higher KYC level allows more. I've left your card's limits unchanged.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, wants a much higher limit for a big purchase; if it is not "
                    "possible, leaves things as they are.",
            goal=f"Raise the {what} of card {card['last4']} to {fmt(ask)}; if impossible, change nothing.",
            first_message=f"{who.intro} I need the {what} on my card ending {card['last4']} raised to {fmt(ask)} a day.",
            facts=who.facts(),
            instructions="If the agent says that amount is not possible, do not ask for the maximum instead; keep the limits unchanged.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[unchanged("cards", card["id"]),
                    ended("raise", "refused", "policy, Card limits: a limit above the level's maximum is refused", card["id"]),
                    limit_of(mx, atm, f"policy, Card limits: {fmt(mx)} is the maximum of the {what}, not of the other limit"),
                    # the maximum in its role, not the amount asked for ("you asked for 1,500.00")
                    says(fact(fmt(mx), "policy, Card limits: above the level's maximum, refuse and tell the customer the "
                                  "maximum for their level", owner=MAXIMUM, rivals=ASKED)),
                    says_not(fact("frozen", "", "blocked", "locked", "suspended", "insufficient", "not enough money",
                                  "not enough funds", "balance is too low", "overdrawn", near=("card", "because", "since", "account")),
                             why="the only reason is the level's maximum: the card is active and the balance is no reason"),
                    says_not(fact(f"{what} is now", "", f"{what} has been raised", f"{what} has been set",
                                  f"{what} has been updated", f"i've raised your {what}", f"i have raised your {what}",
                                  f"i raised your {what}", f"i've set your {what}", f"i have set your {what}",
                                  f"i set your {what}", f"i've updated your {what}", "limit has been raised",
                                  "limit has been increased", "limit has been set", "limit has been updated", "limit is now",
                                  "raised your limit", "increased your limit", "i've raised it", "i have raised it",
                                  "i've increased it", "i have increased it"),
                             why="nothing was changed: the limit is refused")],
        wrong=[
            append(call("update_card_limits", card_id=card["id"], **{field: mx}),
                   note="sets the maximum although the customer did not ask for it"),
            reply(f"Your {what} can't go that high; the maximum is {fmt(mx * 2)}.", note="quotes the wrong maximum"),
            reply(f"I can't raise your {what}: you asked for {fmt(mx)} a day, and that isn't possible at your level.",
                  note="says the maximum as the amount asked for, never as the maximum"),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "cards", "limits", "kyc", "policy"],
    )


@template("report a card lost and replace it; the $10 fee depends on an earlier lost card within 365 days", extra_train=True)
def lost_card_replace(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    variant = v % 4  # 0 first lost (waived), 1 second lost in 365 days (fee), 2 old lost > 365 days (waived), 3 premium
    level = 3 if variant == 3 else rng.choice([1, 2])
    c = s.customer(level=level)
    a = s.account(c)
    if variant in (1, 3):
        s.card(c, a, status="lost", issued=day(500), reported_on=day(rng.randint(60, 300)))
    elif variant == 2:
        s.card(c, a, status="lost", issued=day(900), reported_on=day(rng.randint(380, 600)))
    else:
        s.card(c, a, status="stolen", issued=day(700), reported_on=day(rng.randint(100, 300)))
    card = s.card(c, a)
    s.history(a, card, 4)
    expedited = v % 2 == 1
    fee_due = variant == 1
    shipping = "expedited" if expedited else "standard"
    who = s.identify(c, proof="zip")
    g = who.golden()
    g.add("list_cards", customer_id=c["id"])
    report = g.add("report_card_lost_or_stolen", card_id=card["id"], kind="lost")
    k = g.add("replace_card", card_id=card["id"], reason="lost", shipping=shipping, waive_replacement_fee=not fee_due)
    fees = (10.0 if fee_due else 0.0) + (25.0 if expedited and level < 3 else 0.0)
    new4 = new_card_last4(card["last4"])
    text = (f"Your card ending in {card['last4']} is now blocked as lost. A replacement card ending in {new4} is on its way "
            f"to your mailing address ({'2 business days' if expedited else '5-7 business days'}). ")
    text += f"Fees charged: {fmt(fees)}." if fees else "There is no fee for this replacement."
    told = [new_card_digits(new4), delivery_time(shipping), *fees_told(fee_due and level < 3, expedited and level < 3)]
    speed = "as fast as possible, I'll pay for express delivery" if expedited else "regular delivery is fine"
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, lost their wallet on the bus.",
            goal=f"Block the lost card ending {card['last4']} and get a replacement ({shipping} delivery).",
            first_message=f"{who.intro} I lost my wallet with my debit card ending {card['last4']}. Please block it and "
                          f"send me a new one to my home address - {speed}.",
            facts={**who.facts(), "delivery": f"{shipping} ({speed})", "ship_to": "my home address on file"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("cards", id=card["id"], status="lost"), exists("cards", replaces_card_id=card["id"], shipping=shipping),
                    says(*told, card_blocked(card["last4"])), *shipping_not_free(expedited and level < 3),
                    *fees_not_charged(fee_due and level < 3, (not expedited) or level < 3),
                    old_card_status(card["last4"], "lost"),
                    *requested(g.calls, names={card["id"]: [card["last4"]]})],
        wrong=[
            replace({k: call("replace_card", card_id=card["id"], reason="lost", shipping=shipping, waive_replacement_fee=fee_due)},
                    tag="wrong_amount", note="applies the replacement fee rule the wrong way")
            if level < 3 else
            replace({report: call("report_card_lost_or_stolen", card_id=card["id"], kind="stolen")}, tag="wrong_entity",
                    note="reports the lost card as stolen (the lost-card replacement is then refused)"),
            drop(k, note="blocks the card but orders no replacement"),
            replace({k: call("replace_card", card_id=card["id"], reason="lost", shipping="standard" if expedited else "expedited",
                             waive_replacement_fee=not fee_due)}, tag="extra_write", note="picks the other delivery speed"),
        ],
        kind="multi_step", difficulty="medium", skills=["verification", "cards", "fees", "policy"],
    )


@template("replace a damaged card, sent to the new address the customer gives (updated first)")
def damaged_card_new_address(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    city, state, zips, _ = rng.choice([x for x in CITIES if x[0] != c["city"]])
    line1 = f"{rng.randint(10, 9899)} {rng.choice(STREETS)}"
    zip_ = rng.choice(zips)
    who = s.identify(c, card=card, proof="card")
    expedited = v % 2 == 0
    shipping = "expedited" if expedited else "standard"
    g = who.golden()
    g.add("list_cards", customer_id=c["id"])
    move = g.add("update_mailing_address", customer_id=c["id"], address_line1=line1, city=city, state=state, zip_code=zip_)
    k = g.add("replace_card", card_id=card["id"], reason="damaged", shipping=shipping, waive_replacement_fee=True)
    new4 = new_card_last4(card["last4"])
    text = (f"I've updated your mailing address to {line1}, {city}, {state} {zip_} and ordered a replacement for your damaged "
            f"card ending in {card['last4']}. The new card ends in {new4} and ships "
            f"{'by expedited delivery (2 business days) for 25.00' if expedited else 'free by standard delivery (5-7 business days)'}; "
            "there is no replacement fee for a damaged card. Your old card is now closed.")
    told = [new_card_digits(new4), delivery_time(shipping), *fees_told(False, expedited)]
    speed = "I'd like it fast, I'll pay for express." if expedited else "Normal delivery is fine."
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, just moved; the card's chip stopped working.",
            goal=f"Get a replacement for the damaged card ending {card['last4']}, sent to the new address {line1}, {city}, "
                 f"{state} {zip_}.",
            first_message=f"{who.intro} The chip on my debit card is broken, it doesn't work anywhere. I need a new one, "
                          f"but I've moved. {speed}",
            facts={**who.facts(), "new_address": f"{line1}, {city}, {state} {zip_}", "delivery": shipping},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("customers", id=c["id"], zip_code=zip_, city=city),
                    exists("cards", replaces_card_id=card["id"], shipping=shipping), exists("cards", id=card["id"], status="closed"),
                    says(*told), *shipping_not_free(expedited), *fees_not_charged(False, True),
                    old_card_status(card["last4"], "closed"), *address_swapped(c, city, state, zip_),
                    *requested(g.calls, names={card["id"]: [card["last4"]]})],
        wrong=[
            drop(move, note="ships the card to the old address"),
            replace({k: call("replace_card", card_id=card["id"], reason="damaged", shipping=shipping, waive_replacement_fee=False)},
                    tag="wrong_amount", note="charges the replacement fee for a damaged card"),
        ],
        kind="multi_step", difficulty="medium", skills=["verification", "cards", "profile", "fees"],
    )


# =================================================================================================
# disputes
# =================================================================================================


@template("card number compromised: report stolen, one dispute and provisional credit per charge, the free "
          "replacement the customer wants, a note on their ticket; a genuine charge the same day is the distractor",
          extra_train=True)
def unauthorized_charges(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c, balance=money(rng.uniform(900, 2500)))
    card = s.card(c, a)
    s.history(a, card, 4)
    m1, m2 = rng.sample(FRAUD_MERCHANTS, 2)
    legit_merchant = rng.choice(MERCHANTS)
    genuine = s.tx(a, day(2), "card_purchase", -money(rng.uniform(20, 90)), merchant=legit_merchant, card=card)
    t1 = s.tx(a, day(2), "card_purchase", -money(rng.uniform(120, 480)), merchant=m1, card=card)
    t2 = s.tx(a, day(1), "card_purchase", -money(rng.uniform(60, 300)), merchant=m2, card=card)
    with_ticket = v % 2 == 0
    tk = s.ticket(c, "Charges I don't recognise", "card", card=card, created=day(0)) if with_ticket else None
    who = s.identify(c, proof="zip")
    d1, d2 = dispute_id(t1), dispute_id(t2)
    g = who.golden()
    g.add("list_cards", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], start_date=day(7))
    report = g.add("report_card_lost_or_stolen", card_id=card["id"], kind="stolen")
    g.add("create_dispute", transaction_id=t1["id"], reason="unauthorized", amount=-t1["amount"],
          description=f"Customer did not make this {m1} charge; card still in their possession")
    credit1 = g.add("issue_provisional_credit", dispute_id=d1)
    g.add("create_dispute", transaction_id=t2["id"], reason="unauthorized", amount=-t2["amount"],
          description=f"Customer did not make this {m2} charge; card still in their possession")
    credit2 = g.add("issue_provisional_credit", dispute_id=d2)
    k = g.add("replace_card", card_id=card["id"], reason="stolen", shipping="standard", waive_replacement_fee=True)
    if tk:
        g.add("add_ticket_note", ticket_id=tk["id"], note=f"Card {card['last4']} reported stolen; disputes {d1} and {d2} "
              "opened with provisional credits; free replacement ordered.")
    new4 = new_card_last4(card["last4"])
    text = (f"I've blocked your card ending in {card['last4']} as compromised and opened two disputes: {d1} for "
            f"{fmt(-t1['amount'])} at {m1} and {d2} for {fmt(-t2['amount'])} at {m2}. Both amounts are credited to your "
            f"account provisionally while we investigate (up to 45 days). A free replacement card ending in {new4} is on "
            "its way by standard delivery (5-7 business days).")
    if tk:
        text += f" I've noted all of this on your ticket {tk['id']}."
    assertions = [exists("cards", id=card["id"], status="stolen"),
                  exists("disputes", id=d1, reason="unauthorized", provisional_credit=-t1["amount"]),
                  exists("disputes", id=d2, reason="unauthorized", provisional_credit=-t2["amount"]),
                  # each amount by its own dispute or merchant: the two said in each other's place score 0
                  says(fact(d1, WHY_DISPUTE), fact(fmt(-t1["amount"]), WHY_DISPUTE, owner=(d1, m1), rivals=(d2, m2)),
                       fact(d2, WHY_DISPUTE), fact(fmt(-t2["amount"]), WHY_DISPUTE, owner=(d2, m2), rivals=(d1, m1)),
                       credit_given(-t1["amount"], -t2["amount"]),
                       new_card_digits(new4), delivery_time("standard"), card_blocked(card["last4"])),
                  says_not(NO_CREDIT, CREDIT_NONE, why=WHY_CREDIT_GIVEN),
                  *fees_not_charged(False, True), old_card_status(card["last4"], "stolen"),
                  says_not(*[fact(x, "", owner=("disput", "credit", "refund", "reported", "report", "reversed", "flagged"),
                                  rivals=(*STAYS, "yours", "mine", "your own", "genuine", "legit", "recogni", "you made",
                                          "not disputed", "excluded", "except", "only", "real", "valid", "authori"))
                             for x in (legit_merchant, fmt(-genuine["amount"]))],
                           why="the customer made the charge at the other merchant: it is not disputed"),
                  *requested(g.calls, tools=("report_card_lost_or_stolen", "create_dispute", "issue_provisional_credit",
                                             "replace_card"),
                             names={card["id"]: [card["last4"]], t1["id"]: [d1, m1], t2["id"]: [d2, m2]}),
                  *[ended("refund", "pending", WHY_FINAL, d, t["id"]) for d, t in ((d1, t1), (d2, t2))]]
    if tk:
        assertions.append(exists("ticket_notes", ticket_id=tk["id"], author="agent"))
    ticket_line = f" I already opened ticket {tk['id']} in the app." if tk else ""
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, alarmed: two charges they never made, card still in their wallet.",
            goal=f"Stop the card, dispute the {m1} and {m2} charges, get the money back while it is investigated, and get a new card.",
            first_message=f"{who.intro} There are two charges on my card I didn't make - {m1} and {m2}. I still have my card!{ticket_line}",
            facts={**who.facts(), "card": f"the debit card ending {card['last4']}, still in my wallet",
                   "charges": f"only the {m1} and {m2} ones; the {legit_merchant} charge is mine",
                   "replacement": "yes please, a new card to my home address", "delivery": "standard"},
        ),
        patch=s.patch(), golden=g, reply=text, assertions=assertions,
        wrong=[
            drop(report, note="disputes the charges but leaves the compromised card active"),
            drop(credit1, credit2, tag="wrong_amount", note="opens the disputes without provisional credits"),
            replace({k: call("replace_card", card_id=card["id"], reason="stolen", shipping="standard", waive_replacement_fee=False)},
                    tag="extra_write", note="charges a replacement fee for a stolen card"),
            reply(text.replace(f"{d1} for {fmt(-t1['amount'])} at {m1} and {d2} for {fmt(-t2['amount'])}",
                               f"{d1} for {fmt(-t2['amount'])} at {m1} and {d2} for {fmt(-t1['amount'])}"),
                  note="says each dispute's amount as the other's"),
        ],
        kind="multi_step", difficulty="hard", skills=["verification", "cards", "disputes", "provisional_credit", "tickets"],
    )


@template("a duplicate charge: dispute the later of the two identical charges this week, with a provisional "
          "credit; last month's identical charge is genuine")
def duplicate_charge(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2, 3]))
    a = s.account(c)
    card = s.card(c, a)
    merchant = SUBSCRIPTIONS[v % len(SUBSCRIPTIONS)] if v % 2 else rng.choice(["Gym Nation", "TechDepot", "HomeGoods Hub"])
    s.history(a, card, 4, avoid=(merchant,))
    amount = money(rng.uniform(25, 260))
    s.tx(a, day(34), "card_purchase", -amount, merchant=merchant, card=card)  # last month's genuine charge
    first = s.tx(a, day(5), "card_purchase", -amount, merchant=merchant, card=card)
    second = s.tx(a, day(4), "card_purchase", -amount, merchant=merchant, card=card)
    d = dispute_id(second)
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], merchant=merchant)
    k = g.add("create_dispute", transaction_id=second["id"], reason="duplicate_charge", amount=amount,
              description=f"{merchant} charged the same {amount} twice on {first['posted_on']} and {second['posted_on']}")
    credit = g.add("issue_provisional_credit", dispute_id=d)
    text = (f"You were charged {fmt(amount)} by {merchant} on {first['posted_on']} and again on {second['posted_on']}. I've "
            f"opened dispute {d} for the second charge and credited {fmt(amount)} to your account provisionally while we "
            "investigate; a decision comes within 45 days.")
    earlier = [first["id"], first["posted_on"], "first", "earlier", "original", "last month", day(34)]
    later = [second["id"], second["posted_on"], "second", "later", "latest", "most recent", "newer"]
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, noticed being charged twice this week; pays {merchant} every month.",
            goal=f"Get the duplicate {merchant} charge of {fmt(amount)} from this week disputed and credited.",
            first_message=f"{who.intro} {merchant} charged me twice this week, {fmt(amount)} each time. I only paid once! "
                          "Last month's charge is fine.",
            facts={**who.facts(), "charges": f"the two {fmt(amount)} {merchant} charges from this week"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("disputes", id=d, reason="duplicate_charge", provisional_credit=amount),
                    absent("disputes", transaction_id=first["id"]),
                    says(fact(d, WHY_DISPUTE), fact(fmt(amount), WHY_DISPUTE), credit_given(amount)),
                    says_not(NO_CREDIT, CREDIT_NONE, why=WHY_CREDIT_GIVEN),
                    *requested(g.calls, names={second["id"]: [d]}),
                    # credited provisionally, not refunded: the refund waits for the dispute's decision
                    ended("refund", "pending", WHY_FINAL, d, second["id"]),
                    *other_charge_kept(earlier, later)],
        wrong=[
            replace({k: call("create_dispute", transaction_id=first["id"], reason="duplicate_charge", amount=amount,
                             description="Duplicate charge")}, tag="wrong_entity", note="disputes the first charge, not the duplicate"),
            drop(credit, note="opens the dispute but gives no provisional credit"),
        ],
        kind="distractor", difficulty="medium", skills=["verification", "disputes", "provisional_credit", "disambiguation"],
    )


DISPUTED = ("disput", "opened", "filed", "credit", "refund", "revers", "flagged", "contest", "duplicate")
KEPT = ("first", "earlier", "original", "legitimate", "genuine", "valid", "correct", "real", "fine", "stay", "stays",
        "remain", "keep", "left", "leave", "untouched", "unchanged", "and again", "then again", "charged", "posted",
        # (the one another duplicates: "the 2026-11-26 charge (the duplicate of the 2026-11-25 one)")
        "duplicate of", "duplicates", "copy of", "same as")
"""What says a charge is the one disputed ("the dispute covers the 2026-11-26 charge") or the one kept ("the
2026-11-25 charge stays", "you were charged on 2026-11-25 and again on 2026-11-26")."""


def other_charge_kept(earlier: list[str], later: list[str]) -> list[dict[str, Any]]:
    """Of two identical charges the later is disputed (policy, Disputes: duplicate_charge); the reply must not say the
    earlier one (or last month's) was disputed or credited instead (pattern D): its date bound to the dispute ("I've
    opened DP-500168 for the charge on 2026-11-25"), or the dispute said of both ("both charges are disputed"). The
    dispute id names neither charge, so it is neither's name. `earlier`, `later`: each charge's names (id, date, the
    words that pick it)."""
    why = "policy, Disputes: for a duplicate charge, dispute the later of the two; the earlier charge stays as it is"
    return [ended("dispute", "not_done", why, *earlier, others=later, already=later),
            says_not(fact(earlier[1], "", owner=DISPUTED, rivals=KEPT), why=why)]


AGREED_WORDS = ("agree", "quoted", "quote", "price", "expected", "should have", "supposed", "order confirmation", "confirmed",
                "listed", "advertised", "meant to")
CHARGED_WORDS = ("charg", "billed", "took", "taken", "debited", "paid", "actual")
"""An overcharge's two prices by their own words: "you agreed to 265.00", "Lumen Lighting Co charged 320.50"."""


@template("an overcharge: dispute only the difference to the agreed price (which the agent must ask for), "
          "attach the receipt, no provisional credit")
def wrong_amount_dispute(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    shop, item = SHOPS[(v * 3) % len(SHOPS)]
    agreed = money(rng.choice([149.0, 189.0, 220.0, 265.0, 310.0]))
    charged = money(agreed + rng.choice([40.0, 55.5, 75.0, 99.99]))
    t = s.tx(a, day(rng.randint(4, 20)), "card_purchase", -charged, merchant=shop, card=card)
    diff = money(charged - agreed)
    d = dispute_id(t)
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], merchant=shop)
    k = g.add("create_dispute", transaction_id=t["id"], reason="wrong_amount", amount=diff,
              description=f"Agreed price {agreed} for {item}, charged {charged}")
    evidence = g.add("add_dispute_evidence", dispute_id=d, kind="receipt", description=f"Order confirmation showing {agreed}")
    text = (f"I've opened dispute {d} for the {fmt(diff)} difference between the {fmt(charged)} {shop} charged and the "
            f"{fmt(agreed)} you agreed to pay, with your order confirmation attached. The merchant is asked first, so there "
            "is no provisional credit; a decision comes within 45 days.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, overcharged for {item}; has the order confirmation email.",
            goal=f"Dispute the overcharge on the {shop} purchase (agreed {fmt(agreed)}, charged {fmt(charged)}).",
            first_message=f"{who.intro} {shop} charged me more than the price I agreed to for {item}. I want to dispute it.",
            facts={**who.facts(), "agreed_price": fmt(agreed), "evidence": "the order confirmation email showing the agreed price"},
            instructions=f"Only say the agreed price ({fmt(agreed)}) when the agent asks for it.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("disputes", id=d, reason="wrong_amount", amount=diff, provisional_credit=0),
                    exists("dispute_evidence", dispute_id=d, kind="receipt"),
                    # the disputed amount is the difference, not the price charged or agreed
                    says(fact(d, WHY_DISPUTE), fact(fmt(diff), WHY_DISPUTE,
                                                    owner=("difference", "overcharg", "dispute", "extra", "excess", "over",
                                                           "disputing", "too much", "more than"),
                                                    rivals=("charged", "agreed", "price", "paid", "total", "pay")), NO_CREDIT_TOLD),
                    *requested(g.calls, tools=("create_dispute", "add_dispute_evidence"), names={t["id"]: [d]}),
                    ended("credit", "not_done", "policy, Disputes: a wrong-amount dispute gets no provisional credit", d),
                    ended("refund", "pending", WHY_FINAL, d, t["id"]),
                    # the price agreed and the price charged, each in its own role (pattern D)
                    says_not(fact(fmt(agreed), "", owner=CHARGED_WORDS, rivals=AGREED_WORDS),
                             fact(fmt(charged), "", owner=AGREED_WORDS, rivals=CHARGED_WORDS),
                             why=f"the customer agreed to {fmt(agreed)} and was charged {fmt(charged)}, not the other way round"),
                    # the agreed price and the evidence are the customer's to tell: asked, not guessed
                    no_call("create_dispute", until_asked=PRICE_TOPICS, why=f"{ASK_RULE}: a wrong-amount dispute is for the "
                            "difference from the price the customer agreed, which only they know",
                            ask="What price did you agree to pay?"),
                    no_call("add_dispute_evidence", until_asked=EVIDENCE_TOPICS, why="policy, Disputes: attach what the "
                            "customer tells you they have", ask="Do you have any evidence of the price, such as "
                            "a receipt or an order confirmation?")],
        wrong=[
            replace({k: call("create_dispute", transaction_id=t["id"], reason="wrong_amount", amount=charged,
                             description="Overcharged")}, tag="wrong_amount", note="disputes the whole charge, not the difference"),
            append(call("issue_provisional_credit", dispute_id=d), note="gives a provisional credit for a wrong-amount dispute"),
            drop(evidence, note="does not attach the customer's evidence"),
            reply(f"I've opened dispute {d} for the {fmt(charged)} {shop} charged you; you agreed to pay {fmt(diff)}. The "
                  "merchant is asked first, so there is no provisional credit.", note="says the difference as the agreed price"),
        ],
        kind="ask_user", difficulty="medium", skills=["verification", "disputes", "clarification", "evidence"],
    )


@template("goods never delivered (or a subscription charged after cancelling): dispute, one piece of evidence per "
          "kind the customer names, no provisional credit, a note on the customer's ticket", extra_train=True)
def not_received_dispute(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2, 3]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    subscription = v % 3 == 2
    if subscription:
        merchant, item = SUBSCRIPTIONS[v % len(SUBSCRIPTIONS)], "an annual subscription"
        amount = money(rng.choice([79.0, 99.0, 119.99, 149.0]))
        reason, kinds = "cancelled_subscription", [("cancellation_confirmation", "Cancellation confirmation email"),
                                                    ("merchant_correspondence", "Emails asking the merchant for a refund")]
        story = f"{merchant} renewed my {item} for {fmt(amount)} even though I cancelled it last month."
        has = "the cancellation confirmation email and my emails with their support"
    else:
        merchant, item = SHOPS[(v * 7 + 1) % len(SHOPS)]
        amount = money(rng.uniform(90, 450))
        reason = "not_received"
        kinds = [("receipt", "Order confirmation"), ("merchant_correspondence", "Emails with the merchant, no reply")]
        if v % 2:
            kinds.append(("tracking", "Tracking shows no movement since the label was created"))
        story = f"I paid {merchant} {fmt(amount)} for {item} weeks ago and it never arrived."
        has = "the order confirmation, my emails with the merchant" + (" and the tracking page" if v % 2 else "")
    t = s.tx(a, day(rng.randint(20, 45)), "card_purchase", -amount, merchant=merchant, card=card)
    tk = s.ticket(c, f"{merchant} order problem", "dispute", account=a, created=day(rng.randint(2, 8)))
    d = dispute_id(t)
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], merchant=merchant)
    g.add("create_dispute", transaction_id=t["id"], reason=reason, amount=amount, description=story)
    pieces = [g.add("add_dispute_evidence", dispute_id=d, kind=kind, description=desc) for kind, desc in kinds]
    g.add("get_ticket", ticket_id=tk["id"])
    note = g.add("add_ticket_note", ticket_id=tk["id"], note=f"Opened dispute {d} ({reason}) for {amount}; evidence attached.")
    text = (f"I've opened dispute {d} for the {fmt(amount)} {merchant} charge and attached your evidence. The merchant is "
            "asked to respond first, so there is no provisional credit for this kind of dispute; a decision comes within 45 "
            f"days. I've added this to your ticket {tk['id']}.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, organised; has kept {has}.",
            goal=f"Dispute the {merchant} charge of {fmt(amount)} and have ticket {tk['id']} updated.",
            first_message=f"{who.intro} {story} I opened ticket {tk['id']} about it. I have {has}. Can you dispute the charge?",
            facts={**who.facts(), "evidence": has},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("disputes", id=d, reason=reason, amount=amount, provisional_credit=0),
                    *[exists("dispute_evidence", dispute_id=d, kind=kind) for kind, _ in kinds],
                    exists("ticket_notes", ticket_id=tk["id"], author="agent"),
                    says(fact(d, WHY_DISPUTE), fact(fmt(amount), WHY_DISPUTE), NO_CREDIT_TOLD),
                    *requested(g.calls, tools=("create_dispute", "add_dispute_evidence", "add_ticket_note"), names={t["id"]: [d]}),
                    ended("credit", "not_done", f"policy, Disputes: a {reason} dispute gets no provisional credit", d),
                    ended("refund", "pending", WHY_FINAL, d, t["id"])],
        wrong=[
            append(call("issue_provisional_credit", dispute_id=d), note=f"gives a provisional credit for a {reason} dispute"),
            drop(note, note="does not note the dispute on the customer's ticket"),
            drop(pieces[1], note="attaches only part of the evidence"),
        ],
        kind="multi_step", difficulty="hard", skills=["verification", "disputes", "evidence", "tickets"],
    )


@template("a charge that cannot be disputed: posted more than 60 days ago, or still pending")
def dispute_not_eligible(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    shop, item = SHOPS[(v * 5 + 2) % len(SHOPS)]
    s.history(a, card, 3, avoid=(shop,))
    pending = v % 3 == 1
    amount = money(rng.uniform(60, 380))
    if pending:
        t = s.tx(a, day(1), "card_purchase", -amount, merchant=shop, card=card, status="pending")
        text = (f"The {fmt(amount)} {shop} charge is still pending, so it can't be disputed yet: a charge may still "
                "change or drop off before it settles. Please contact us again if it is still wrong once it has settled.")
        reasons = [fact("pending", "policy, Disputes: a pending charge cannot be disputed yet; tell the customer to wait "
                                   "until it posts", "not posted yet", "not yet posted", "hasn't posted", "has not posted",
                        "until it posts", "once it posts", "after it posts", "when it posts", "hasn't settled", "not yet settled",
                        "not settled", "still processing", may_be_negated=True)]  # "I can't dispute a pending charge"
        story = f"{shop} charged me {fmt(amount)} yesterday for {item} but cancelled my order. I want to dispute it."
    else:
        posted = day(rng.choice([63, 71, 85, 98]))
        t = s.tx(a, posted, "card_purchase", -amount, merchant=shop, card=card)
        text = (f"I'm sorry, I can't open a dispute for the {fmt(amount)} {shop} charge: charges can be disputed within 60 "
                f"days of posting, and this one posted on {posted}.")
        why = "policy, Disputes: outside the window, decline and tell the customer the posting date and the 60-day rule"
        reasons = [fact(posted, why), fact("60 days", why, "2 months")]
        story = f"I never received {item} I paid {shop} {fmt(amount)} for, back in the late summer / early autumn. I want my money back."
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], merchant=shop)
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, frustrated with {shop}.",
            goal=f"Dispute the {shop} charge of {fmt(amount)}.",
            first_message=f"{who.intro} {story}", facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[absent("disputes", transaction_id=t["id"]), says(*reasons),
                    # (the pending charge's "pending" stands by the dispute's word: the stance reader takes it for the
                    # dispute waiting, so there the waiting dispute is the claims below)
                    *refused_under_review("dispute", pending, "policy, Disputes: " + (
                        "a pending charge cannot be disputed yet" if pending else "a charge older than 60 days cannot be disputed"),
                        t["id"], promises=DISPUTE_PROMISES),
                    *([under_way(("dispute", "dispute request", "your dispute", "the dispute"),
                                 ("a dispute", "your dispute", "the dispute", "a dispute request"),
                                 why="a pending charge cannot be disputed yet: no dispute is under way"),
                       # no dispute exists: "your dispute" is one said to exist ("your dispute for the charge is pending")
                       says_not(phrases("your dispute for", "", ["your dispute for", "your dispute on", "your dispute about",
                                                                 "your dispute is", "your dispute will", "your dispute has"]),
                                why="a pending charge cannot be disputed yet: there is no dispute")] if pending else []),
                    says_not(fact("opened a dispute", "", "dispute is open", "dispute has been opened", "dispute was opened",
                                  "filed a dispute", "dispute has been filed", "opened dispute", "i've disputed",
                                  "have disputed", "submitted a dispute", "started a dispute"),
                             why="the charge cannot be disputed: no dispute was opened"),
                    # the customer wants the money back: no refund nor credit was given either (pattern E)
                    *[ended(verb, "not_done", "the charge cannot be disputed: no money was given back", t["id"])
                      for verb in ("refund", "credit")]],
        wrong=[
            append(call("create_dispute", transaction_id=t["id"], reason="not_received", amount=amount, description=story),
                   note="opens a dispute that the policy does not allow"),
            reply("I can't dispute that charge, sorry.", note="declines without the reason"),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "disputes", "policy", "dates"],
    )


@template("an unauthorized charge above $500: block the card, dispute, and a provisional credit only with a "
          "supervisor's approval; denied, a ticket linked to the dispute is escalated")
def large_unauthorized_approval(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    denied = v % 3 == 2
    c = s.customer(level=rng.choice([1, 2]), risk=denied)
    a = s.account(c, balance=money(rng.uniform(600, 1500)))
    card = s.card(c, a)
    s.history(a, card, 3)
    merchant = FRAUD_MERCHANTS[(v + 2) % len(FRAUD_MERCHANTS)]
    amount = money(rng.uniform(520, 1400))
    t = s.tx(a, day(rng.randint(1, 3)), "card_purchase", -amount, merchant=merchant, card=card)
    d = dispute_id(t)
    who = s.identify(c, proof="zip")
    g = who.golden()
    g.add("list_cards", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], merchant=merchant)
    report = g.add("report_card_lost_or_stolen", card_id=card["id"], kind="stolen")
    g.add("create_dispute", transaction_id=t["id"], reason="unauthorized", amount=amount,
          description=f"Customer did not make the {merchant} charge")
    approval = g.add("request_supervisor_approval", customer_id=c["id"], kind="provisional_credit", reference_id=d,
                     amount=amount, reason="Unauthorized charge above 500; provisional credit requested")
    opened = f"I've blocked your card ending in {card['last4']} and opened dispute {d} for the {fmt(amount)} {merchant} charge."
    told = [fact(d, WHY_DISPUTE), fact(fmt(amount), WHY_DISPUTE), card_blocked(card["last4"])]
    if denied:
        ticket = g.add("create_ticket", customer_id=c["id"], subject=f"Provisional credit for {d} not approved",
                       category="dispute", dispute_id=d)
        escalate = g.add("escalate_ticket", ticket_id=f"T-{NEW}", reason=f"Supervisor denied the provisional credit for {d}")
        text = (f"{opened} The provisional credit could not be approved, so I've escalated the case (ticket T-{NEW}); a "
                "specialist will contact you within one business day. The dispute itself continues.")
        assertions = [exists("disputes", id=d, provisional_credit=0),
                      exists("tickets", id=f"T-{NEW}", status="escalated", dispute_id=d),
                      says(*told, NOT_APPROVED, SPECIALIST_CALLBACK), must_not_disclose(*RISK_WORDS, why=WHY_RISK),
                      says_not(credit_given(), why="the provisional credit was denied"),
                      # refused by the supervisor and handed on to a specialist: "the case is with a specialist" is true
                      ended("credit", "not_done", "the supervisor denied the provisional credit; the case is escalated", d)]
        wrong = [
            drop(ticket, escalate, note="tells the customer no but does not escalate"),
            replace({ticket: call("create_ticket", customer_id=c["id"], subject="Provisional credit not approved",
                                  category="dispute")}, tag="wrong_entity",
                    note="opens the escalation ticket without linking the dispute"),
            drop(report, note="leaves the compromised card active"),
        ]
    else:
        g.add("issue_provisional_credit", dispute_id=d, approval_id=f"AP-{NEW}")
        text = (f"{opened} A supervisor approved a provisional credit of {fmt(amount)} while we investigate "
                "(up to 45 days).")
        assertions = [exists("disputes", id=d, provisional_credit=amount, approval_id=f"AP-{NEW}"),
                      says(*told, credit_given(amount, denied_possible=True)),
                      says_not(NO_CREDIT, CREDIT_NONE, why=WHY_CREDIT_GIVEN)]
        wrong = [
            drop(approval, tag="skipped_approval",
                 note="skips the supervisor (the credit is refused) and leaves the customer without money"),
            drop(report, note="leaves the compromised card active"),
        ]
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, shocked by a large charge from {merchant}; the card is still in their wallet.",
            goal=f"Stop the card, dispute the {merchant} charge of {fmt(amount)} and get the money back meanwhile.",
            first_message=f"{who.intro} There's a {fmt(amount)} charge from {merchant} on my card that I never made! I still have the card.",
            facts={**who.facts(), "card": f"the debit card ending {card['last4']}, still in my wallet",
                   "replacement": "no thanks, I'll order a new card myself later in the app"},
            declines=["replacement", "new card"],
            instructions="Do not ask for a replacement card in this conversation.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("cards", id=card["id"], status="stolen"), *assertions,
                    *requested(g.calls, tools=("report_card_lost_or_stolen", "create_dispute", "issue_provisional_credit"),
                               names={card["id"]: [card["last4"]], t["id"]: [d]}),
                    ended("refund", "pending", WHY_FINAL, d, t["id"])],
        wrong=wrong,
        kind="approval", difficulty="hard", skills=["verification", "cards", "disputes", "approval", "provisional_credit"],
    )


@template("withdraw the dispute the merchant settled and close its ticket; the other merchant's dispute stays")
def withdraw_dispute(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    shop, _ = SHOPS[(v * 2 + 5) % len(SHOPS)]
    other_shop, _ = SHOPS[(v * 2 + 6) % len(SHOPS)]
    amount = money(rng.uniform(40, 300))
    with_credit = v % 2 == 0
    t = s.tx(a, day(rng.randint(12, 30)), "card_purchase", -amount, merchant=shop, card=card)
    d = s.dispute(c, t, "duplicate_charge" if with_credit else "not_received", opened_on=day(8),
                  provisional=amount if with_credit else 0.0)
    t2 = s.tx(a, day(rng.randint(12, 30)), "card_purchase", -money(rng.uniform(40, 300)), merchant=other_shop, card=card)
    d2 = s.dispute(c, t2, "not_received", opened_on=day(6))
    tk = s.ticket(c, f"Dispute with {shop}", "dispute", dispute=d, created=day(8))
    tk2 = s.ticket(c, f"Dispute with {other_shop}", "dispute", dispute=d2, created=day(6))
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("list_disputes", customer_id=c["id"])
    # the disputes name no merchant: the tickets tie each to its shop before one is withdrawn
    g.add("list_customer_tickets", customer_id=c["id"])
    k = g.add("withdraw_dispute", dispute_id=d["id"], reason=f"{shop} refunded the customer directly")
    close = g.add("update_ticket_status", ticket_id=tk["id"], status="closed")
    text = f"I've withdrawn dispute {d['id']} with {shop}"
    text += f"; the provisional credit of {fmt(amount)} has been reversed from your account" if with_credit else ""
    text += f". Ticket {tk['id']} is now closed. Your dispute with {other_shop} continues as before."
    told = [phrases("has been withdrawn", f"{WHY_CHANGED}: the customer asked to withdraw the dispute",
                    done("withdrawn", "cancelled", "canceled", "dropped", "retracted", past=("withdrew",),
                         objects=("the", "it", "your", "dispute", d["id"]))
                    + [f"{subject}{be} {state}" for subject in ("dispute", d["id"])
                       for be in (" is", ":", " is now", " has been", " was", " has now been")
                       for state in ("withdrawn", "cancelled", "canceled", "closed")]
                    + [f"closed {obj}" for obj in ("the dispute", "your dispute", "that dispute", d["id"], f"dispute {d['id']}")]
                    + ["status: withdrawn", "status is withdrawn", "withdrawn", "withdrew"]),  # not after a negation
            ticket_closed(tk["id"])]
    # the withdrawal said of the dispute that stays (its id or merchant nearest the word) is wrong
    mine, theirs = (d["id"], shop), (d2["id"], other_shop)
    # (also "both disputes" / "disputes have been withdrawn": the normaliser folds plurals, so "have" / "are" tell them)
    every = phrases("withdrawn both", "", [f"{verb} {what}" for verb in ("withdrawn", "withdrew", "cancelled", "closed")
                                          for what in ("both", "all", "all of your", "all your", "each")]
                    + [f"dispute {be} {done_}" for be in ("have been", "are", "are now", "were", "have both been",
                                                          "have all been", "are both", "both") for done_ in ("withdrawn", "cancelled")]
                    + ["both disputes", "both of your disputes", "both of them"])
    kept = says_not(fact("withdrawn", "", "withdrew", "cancelled", "canceled", "dropped", "retracted", owner=theirs, rivals=mine),
                    every, why=f"the customer's dispute with {other_shop} stays open; only the {shop} dispute is withdrawn")
    if with_credit:
        # reversed (taken back), not kept or credited
        told.append(fact(fmt(amount), "policy, Disputes: on withdrawal, tell the customer the reversed provisional credit",
                         owner=("revers", "debit", "taken back", "take back", "took back", "removed", "deduct", "withdrawn",
                                "clawed", "charged back", "taken out", "taken off", "pulled back", "undone", "reclaim",
                                "subtract"),
                         rivals=("keep", "stay", "remain", "still", "refund", "credited to", "added")))
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, honest: {shop} refunded them directly, so the dispute is no longer needed.",
            goal=f"Withdraw the dispute about {shop} and close its ticket; keep the {other_shop} dispute.",
            first_message=f"{who.intro} {shop} refunded me themselves, so please withdraw my dispute with them and close "
                          f"the ticket about it. My dispute with {other_shop} should stay.",
            facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("disputes", id=d["id"], status="withdrawn"), unchanged("disputes", d2["id"]),
                    exists("tickets", id=tk["id"], status="closed"), says(*told), kept,
                    *requested(g.calls, names={d["id"]: [shop]}, others={d["id"]: [d2["id"], other_shop],
                                                                          tk["id"]: [tk2["id"], other_shop]})],
        wrong=[
            replace({k: call("withdraw_dispute", dispute_id=d2["id"], reason="Merchant refunded")}, tag="wrong_entity",
                    note="withdraws the other merchant's dispute"),
            drop(close, note="leaves the ticket open"),
        ],
        kind="multi_step", difficulty="medium", skills=["verification", "disputes", "tickets", "disambiguation"],
    )


@template("a ticket whose dispute is still open is not closed: note the request and explain why (the paper's example)")
def close_ticket_open_dispute(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    shop, _ = SHOPS[(v * 3 + 4) % len(SHOPS)]
    t = s.tx(a, day(rng.randint(15, 35)), "card_purchase", -money(rng.uniform(50, 350)), merchant=shop, card=card)
    d = s.dispute(c, t, rng.choice(["not_received", "wrong_amount"]), opened_on=day(10))
    tk = s.ticket(c, f"Charge from {shop}", "dispute", dispute=d, created=day(10))
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_ticket", ticket_id=tk["id"])
    g.add("get_dispute", dispute_id=d["id"])
    note = g.add("add_ticket_note", ticket_id=tk["id"],
                 note=f"Customer asked to close the ticket; kept open because dispute {d['id']} is still open.")
    text = (f"I can't close ticket {tk['id']} yet: it is linked to dispute {d['id']}, which is still open, and the ticket "
            "must stay open until that dispute is decided (within 45 days of opening). I've noted your request on the ticket.")
    why = "policy, Support tickets: a ticket is never closed while its dispute is open; explain that it stays open until the dispute is decided"
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, tired of the notifications about the ticket.",
            goal=f"Have ticket {tk['id']} closed.",
            first_message=f"{who.intro} Please just close my ticket {tk['id']}, I'm tired of the emails about it.",
            facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[unchanged("tickets", tk["id"], "status"), exists("ticket_notes", ticket_id=tk["id"], author="agent"),
                    says(open_of(why, [d["id"], t["id"], "dispute"], [tk["id"], "ticket"])),
                    says_not({k: v for k, v in ticket_closed(tk["id"]).items() if k != "why"},
                             why="the ticket stays open while its dispute is open"),
                    # "until the dispute is resolved and closed" is about the dispute
                    ended("close", "refused", "policy, Support tickets: a ticket is never closed while its dispute is open",
                          tk["id"], "ticket", others=(d["id"], "dispute")),
                    *([] if d["provisional_credit"] else [
                        says_not(fact("credited", "", *CREDITED[1:], "have had", "got", near=("provisional", "temporar")),
                                 why=f"dispute {d['id']} has no provisional credit: none may be said given")])],
        wrong=[
            append(call("update_ticket_status", ticket_id=tk["id"], status="closed"),
                   note="closes the ticket while its dispute is open"),
            drop(note, note="does not note the request on the ticket"),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "tickets", "disputes", "policy"],
    )


# =================================================================================================
# transfers
# =================================================================================================


@template("move money between the customer's own accounts, now or on a date they give (any KYC status)", extra_train=True)
def internal_transfer(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]), kyc_status=rng.choice(["verified", "verified", "pending"]))
    a, sv, card = s.checking_and_savings(c, money(rng.uniform(2500, 4000)), money(rng.uniform(3000, 9000)))
    amount = money(rng.choice([150.0, 300.0, 450.0, 600.0, 1200.0]))
    to_savings = v % 2 == 0
    src, dst = (a, sv) if to_savings else (sv, a)
    when = day(-rng.randint(3, 20)) if v % 3 == 1 else None
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    k = g.add("create_transfer", from_account_id=src["id"], to_account_id=dst["id"], amount=amount, scheduled_for=when,
              memo="Customer request")
    direction_words = f"from {src['nickname']} to {dst['nickname']}"
    text = (f"Done: {fmt(amount)} " + (f"is scheduled to move {direction_words} on {when}." if when
                                         else f"has moved {direction_words}; it is available right away."))
    ask = f"Please move {fmt(amount)} from my {src['nickname']} account to my {dst['nickname']} account"
    ask += f" on {when}." if when else " now."
    told = [fact(fmt(amount), WHY_TRANSFER)] + ([fact(when, WHY_TRANSFER)] if when else [])
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, organising their money between accounts.",
            goal=f"Move {fmt(amount)} {direction_words}" + (f" on {when}." if when else " now."),
            first_message=f"{who.intro} {ask}",
            facts={**who.facts(), "transfer": f"{fmt(amount)} {direction_words}, " + (f"on {when}" if when else "now")},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[says(*told, TRANSFER_DONE),
                    # made, in the customer's word and the transfer's: not "couldn't move", "the transfer failed", and not
                    # taken back ("the transfer was reversed")
                    *[ended(verb, "done", WHY_DONE, f"TR-{NEW}") for verb in ("move", "transfer")],
                    ended("reverse", "not_done", "the transfer was made and stays made", f"TR-{NEW}"),
                    says_not(TRANSFER_UNDONE, why="the transfer was made and stays made"),
                    not_sent_yet(when) if when else NOT_LATER,
                    direction(src, dst, f"{WHY_TRANSFER}: the money went {direction_words}")],
        wrong=[
            replace({k: call("create_transfer", from_account_id=src["id"], to_account_id=dst["id"], amount=money(amount + 100),
                             scheduled_for=when)}, tag="wrong_amount", note="moves a different amount"),
            replace({k: call("create_transfer", from_account_id=dst["id"], to_account_id=src["id"], amount=amount,
                             scheduled_for=when)}, tag="wrong_entity", note="moves the money the wrong way"),
            drop(VERIFY, note="moves money without verifying the customer"),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "transfers"],
    )


@template("send money to a saved payee; another saved payee has almost the same name")
def external_similar_payee(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = rng.choice([1, 2])
    c = s.customer(level=level)
    a = s.account(c, balance=money(rng.uniform(2500, 4000)))
    card = s.card(c, a)
    s.history(a, card, 3)
    first_a, first_b = SIMILAR[s.split][v % len(SIMILAR[s.split])]
    last = PAYEE_LAST[(v + 3) % len(PAYEE_LAST)]
    bank_a, bank_b = rng.sample(BANKS, 2)
    want_b = v % 2 == 1
    pa = s.payee(c, f"{first_a} {last}", bank_a)
    pb = s.payee(c, f"{first_b} {last}", bank_b)
    target, other = (pb, pa) if want_b else (pa, pb)
    amount = money(rng.choice([120.0, 250.0, 380.0, 640.0]) if level == 1 else rng.choice([450.0, 900.0, 1500.0]))
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])  # (the account the money leaves: read, not guessed)
    g.add("list_payees", customer_id=c["id"])
    g.add("get_transfer_limits", customer_id=c["id"])
    k = g.add("create_transfer", from_account_id=a["id"], payee_id=target["id"], amount=amount, memo="Customer request")
    text = (f"I've sent {fmt(amount)} to {target['name']} at {target['bank_name']} (account ending {target['account_last4']}). "
            "It is on its way and arrives within 1-3 business days.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, pays back a friend; has two saved payees with almost the same name.",
            goal=f"Send {fmt(amount)} now to {target['name']} at {target['bank_name']}.",
            first_message=f"{who.intro} Please send {fmt(amount)} to {target['name']} - the account at {target['bank_name']}. "
                          "Now, please.",
            facts={**who.facts(), "payee": f"{target['name']} at {target['bank_name']}, not {other['name']}"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("transfers", payee_id=target["id"], amount=amount, status="pending"),
                    absent("transfers", payee_id=other["id"]),
                    says(fact(fmt(amount), WHY_TRANSFER), fact(target["name"], WHY_TRANSFER), TRANSFER_DONE), NOT_ARRIVED,
                    # the look-alike's bank or account said as the payee's ("to Marcos Okafor at Riverbend Savings")
                    says_not(*(fact(v, "", owner=[target["name"]], rivals=[other["name"]])
                               for k in ("bank_name", "account_last4") if (v := other[k]) != target[k]),
                             why=f"the money went to {target['name']} at {target['bank_name']}: the other payee's bank "
                                 "and account are not the ones paid"),
                    *requested(g.calls, names={target["id"]: [target["name"]]},
                               others={target["id"]: [other["id"], other["name"]]})],
        wrong=[
            replace({k: call("create_transfer", from_account_id=a["id"], payee_id=other["id"], amount=amount)},
                    tag="wrong_entity", note="pays the payee with the similar name"),
            replace({k: call("create_transfer", from_account_id=a["id"], payee_id=target["id"], amount=money(amount / 10))},
                    tag="wrong_amount", note="sends a different amount"),
            drop(VERIFY, note="sends money without verifying the customer"),
            # a proper name is compared letter for letter: the look-alike does not state the payee
            reply(f"I've sent {fmt(amount)} to {other['name']}. It is on its way and arrives within 1-3 business days.",
                  note="names the payee with the similar name"),
        ],
        kind="distractor", difficulty="medium", skills=["verification", "transfers", "payees", "disambiguation"],
    )


@template("an external transfer above what remains of the daily limit: a supervisor approves, then exactly that "
          "transfer, now or on the customer's date", extra_train=True)
def transfer_over_limit_approved(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = [1, 2, 1, 2][v % 4]
    limit = LEVELS[level].external
    c = s.customer(level=level)
    a = s.account(c, balance=money(limit * 2.5 + rng.uniform(100, 900)))
    card = s.card(c, a)
    s.history(a, card, 3)
    payee = s.payee(c, s.person())
    other = s.payee(c, s.person())
    scheduled = v % 2 == 1
    when = day(-rng.randint(3, 12)) if scheduled else day(0)
    used = money(limit * rng.choice([0.2, 0.3, 0.5]))
    s.transfer(c, a, used, "scheduled" if scheduled else "pending", when, payee=other,
               created_on=day(2) if scheduled else day(0), memo="Utilities")
    amount = money(limit * rng.choice([0.9, 1.2, 1.5]))
    remaining = money(limit - used)
    on = when if scheduled else None
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_payees", customer_id=c["id"])
    g.add("get_transfer_limits", customer_id=c["id"], on_date=on)
    approval = g.add("request_supervisor_approval", customer_id=c["id"], kind="transfer_limit", reference_id=payee["id"],
                     amount=amount, reason=f"External transfer of {amount} exceeds the remaining daily limit of {remaining}")
    k = g.add("create_transfer", from_account_id=a["id"], payee_id=payee["id"], amount=amount, scheduled_for=on,
              approval_id=f"AP-{NEW}", memo="Customer request")
    text = (f"That transfer is above your remaining daily limit of {fmt(remaining)}, so I asked a supervisor, who approved "
            f"it. {fmt(amount)} to {payee['name']} " + (f"is scheduled for {when}." if scheduled else
                                                       "has been sent and arrives within 1-3 business days."))
    # the approved amount as the one sent, not as the remaining limit ("above your limit of {amount}")
    told = [fact(fmt(amount), WHY_TRANSFER, owner=("sent", "send", "transfer", "schedul", "payment", "approved", "paid", "going", "amount",
                                                   "on its way", "will go", "to " + payee["name"]),
                 rivals=("remain", "limit", "left", "available", "only")),
            fact(payee["name"], WHY_TRANSFER)] + ([fact(when, WHY_TRANSFER)] if scheduled else [])
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, paying {payee['name']} for a used car; needs it in one payment.",
            goal=f"Send {fmt(amount)} to {payee['name']} in one transfer" + (f" on {when}." if scheduled else " today."),
            first_message=f"{who.intro} I need to send {fmt(amount)} to {payee['name']} "
                          + (f"on {when}" if scheduled else "today") + ", in one payment. It's for a car.",
            facts={**who.facts(), "payee": payee["name"], "payment": f"{fmt(amount)} in one single payment, "
                   + (f"on {when}" if scheduled else "today")},
            instructions="Do not accept splitting the payment or moving it to another day.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("transfers", payee_id=payee["id"], amount=amount, approval_id=f"AP-{NEW}"),
                    remaining_is(remaining, limit, used, amount),
                    says(*told, TRANSFER_DONE), *requested(g.calls, names={payee["id"]: [payee["name"]]}),
                    not_sent_yet(when) if scheduled else NOT_ARRIVED,
                    says_not(fact("within your limit", "", "within the limit", "within your daily limit", "under your limit",
                                  "under the limit", "below your limit", "below the limit", "fits your limit", "fit your limit"),
                             fact("no approval", "", "no supervisor", "approval wasn't needed", "approval was not needed",
                                  "approval isn't needed", "approval is not needed", "didn't need approval",
                                  "did not need approval", "didn't need any approval", "without approval",
                                  "without any approval", "without a supervisor", "no need for approval", may_be_negated=True),
                             why="the transfer is above the remaining limit and went out only with a supervisor's approval")],
        wrong=[
            replace({k: call("create_transfer", from_account_id=a["id"], payee_id=payee["id"], amount=remaining, scheduled_for=on)},
                    tag="wrong_amount", note="sends only what fits under the limit instead of the approved amount"),
            drop(approval, tag="skipped_approval", note="skips the supervisor (the transfer is refused)"),
            drop(k, note="gets the approval but never makes the transfer"),
            reply(f"That transfer is above your remaining daily limit of {fmt(amount)}, so I asked a supervisor, who approved "
                  f"it. {fmt(remaining)} to {payee['name']} " + (f"is scheduled for {when}." if scheduled else "has been sent."),
                  note="swaps the approved amount and the remaining limit"),
        ],
        kind="approval", difficulty="hard", skills=["verification", "transfers", "limits", "approval"],
    )


@template("an external transfer above the daily limit that the supervisor denies: nothing is sent; the customer's "
          "ticket (or a new one on the account) is escalated")
def transfer_over_limit_denied(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = [1, 2, 2][v % 3]
    limit = LEVELS[level].external
    risky = v % 2 == 0
    c = s.customer(level=level, risk=risky)
    a = s.account(c, balance=money(limit * 3.2 + rng.uniform(100, 900)))
    card = s.card(c, a)
    s.history(a, card, 3)
    payee = s.payee(c, s.person())
    used = money(limit * 0.2)
    s.transfer(c, a, used, "pending", day(0), payee=payee, memo="Deposit")
    amount = money(limit * (rng.choice([1.2, 1.5]) if risky else rng.choice([2.3, 2.8])))
    remaining = money(limit - used)
    with_ticket = v % 3 != 1
    tk = s.ticket(c, f"Large transfer to {payee['name']}", "transfer", account=a, created=day(1)) if with_ticket else None
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_payees", customer_id=c["id"])
    g.add("get_transfer_limits", customer_id=c["id"])
    g.add("request_supervisor_approval", customer_id=c["id"], kind="transfer_limit", reference_id=payee["id"],
          amount=amount, reason=f"External transfer of {amount} above the daily limit")
    if tk:
        g.add("get_ticket", ticket_id=tk["id"])
        tid = tk["id"]
    else:
        g.add("create_ticket", customer_id=c["id"], subject=f"Over-limit transfer to {payee['name']} not approved",
              category="transfer", account_id=a["id"])
        tid = f"T-{NEW}"
    escalate = g.add("escalate_ticket", ticket_id=tid, reason="Supervisor denied the over-limit transfer")
    text = (f"I'm sorry: the {fmt(amount)} transfer to {payee['name']} is above your remaining daily limit of "
            f"{fmt(remaining)} and could not be approved, so nothing was sent. I've escalated ticket {tid}; a specialist "
            "will contact you within one business day.")
    ticket_line = f" I opened ticket {tk['id']} about it yesterday." if tk else ""
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, needs to pay {payee['name']} a large sum and is in a hurry.",
            goal=f"Send {fmt(amount)} to {payee['name']} today in one payment.",
            first_message=f"{who.intro} I need to send {fmt(amount)} to {payee['name']} today, in one payment.{ticket_line}",
            facts={**who.facts(), "payee": payee["name"], "payment": f"{fmt(amount)} in one single payment, today"},
            instructions="Do not accept a smaller amount or splitting the payment.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[absent("transfers", payee_id=payee["id"], amount=amount), exists("tickets", id=tid, status="escalated"),
                    says(NOT_APPROVED, SPECIALIST_CALLBACK), must_not_disclose(*RISK_WORDS, why=WHY_RISK),
                    remaining_is(remaining, limit, used),
                    says_not(SENT_CLAIM, SENT_LATER, why="the supervisor denied it: nothing was sent, and nothing will be "
                                                          "sent unless the specialist finds a way"),
                    # refused by the supervisor and handed on to a specialist: "a specialist will contact you" is true
                    ended("send", "not_done", "the supervisor denied the transfer; the ticket is escalated", payee["id"]),
                    # writes a customer in a hurry could think were made instead (pattern E)
                    says_not(LIMIT_RAISED, why="policy, Transfers: the daily limit is the KYC level's; it was not raised"),
                    ended("upgrade", "not_done", "the customer asked for a transfer; the KYC level was not changed", c["id"]),
                    ended("close", "not_done", "the ticket is escalated, and stays open for the specialist", tid)],
        wrong=[
            append(call("create_transfer", from_account_id=a["id"], payee_id=payee["id"], amount=remaining),
                   tag="wrong_amount", note="sends what fits under the limit after the denial"),
            drop(escalate, note="tells the customer no but does not escalate"),
        ],
        kind="approval", difficulty="hard", skills=["verification", "transfers", "limits", "approval", "escalation"],
    )


@template("cancel one scheduled transfer of several (same payee and amount on another date, another payee on the same date)")
def cancel_scheduled_transfer(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    p = s.payee(c, s.person())
    q = s.payee(c, s.person())
    amount = money(rng.choice([200.0, 350.0, 480.0, 650.0]))
    d1, d2 = day(-rng.randint(2, 8)), day(-rng.randint(15, 28))
    first = s.transfer(c, a, amount, "scheduled", d1, payee=p, created_on=day(10), memo="Lessons")
    second = s.transfer(c, a, amount, "scheduled", d2, payee=p, created_on=day(10), memo="Lessons")
    third = s.transfer(c, a, amount, "scheduled", d2, payee=q, created_on=day(9), memo="Club fee")
    target, keep = (second, first) if v % 2 == 0 else (first, second)
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("list_transfers", customer_id=c["id"], status="scheduled")
    k = g.add("cancel_transfer", transfer_id=target["id"])
    text = (f"I've cancelled the {fmt(amount)} transfer to {p['name']} scheduled for {target['scheduled_for']}. The one on "
            f"{keep['scheduled_for']} and your transfer to {q['name']} are still scheduled.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, skipping one payment to {p['name']} this month.",
            goal=f"Cancel only the scheduled transfer to {p['name']} on {target['scheduled_for']}.",
            first_message=f"{who.intro} Please cancel my scheduled transfer to {p['name']} on {target['scheduled_for']}. "
                          "Keep the others.",
            facts={**who.facts(), "transfer": f"the {fmt(amount)} one to {p['name']} on {target['scheduled_for']}, only that one"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("transfers", id=target["id"], status="cancelled"), unchanged("transfers", keep["id"]),
                    unchanged("transfers", third["id"]),
                    says(fact(target["scheduled_for"], f"{WHY_TRANSFER}: which transfer was cancelled", owner=CANCEL_CUES,
                              rivals=STAYS), CANCELLED),
                    *requested(g.calls, names={target["id"]: dated(target["scheduled_for"])},
                               others={target["id"]: [keep["id"], keep["scheduled_for"], third["id"], q["name"]]})],
        wrong=[
            replace({k: call("cancel_transfer", transfer_id=keep["id"])}, tag="wrong_entity", note="cancels the other date"),
            append(call("cancel_transfer", transfer_id=keep["id"]), note="cancels both payments to the payee"),
            replace({k: call("cancel_transfer", transfer_id=third["id"])}, tag="wrong_entity",
                    note="cancels the other payee's transfer on that date"),
            reply(f"I've cancelled the {fmt(amount)} transfer to {p['name']} scheduled for {keep['scheduled_for']}. The one on "
                  f"{target['scheduled_for']} and your transfer to {q['name']} are still scheduled.",
                  note="says the other date was the one cancelled"),
        ],
        kind="distractor", difficulty="medium", skills=["verification", "transfers", "disambiguation"],
    )


@template("a transfer already sent (pending) cannot be cancelled: say it was sent and when; the scheduled one stays")
def cancel_pending_refusal(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    p = s.payee(c, s.person())
    amount = money(rng.choice([180.0, 275.0, 420.0, 760.0]))
    sent = s.transfer(c, a, amount, "pending", day(0), payee=p, memo="Invoice")
    s.tx(a, day(0), "transfer_out", -amount, status="pending", description=f"Transfer to {p['name']}")
    later = s.transfer(c, a, amount, "scheduled", day(-rng.randint(20, 30)), payee=p, created_on=day(0), memo="Invoice")
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("list_transfers", customer_id=c["id"])
    text = (f"I'm sorry, the {fmt(amount)} transfer to {p['name']} you made today has already been sent, so it can't be "
            f"cancelled; it arrives within 1-3 business days. Your next transfer to {p['name']} on "
            f"{later['scheduled_for']} is still scheduled.")
    why = "policy, Transfers: a pending transfer cannot be recalled; tell the customer it was sent and when it was created"
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, sent money to {p['name']} this morning and regrets it.",
            goal=f"Cancel the {fmt(amount)} transfer to {p['name']} sent this morning.",
            first_message=f"{who.intro} I sent {fmt(amount)} to {p['name']} this morning by mistake - please cancel it! "
                          "Not the one next month, just this morning's.",
            facts={**who.facts(), "transfer": f"the {fmt(amount)} one to {p['name']} from this morning"},
            instructions="You only want this morning's transfer stopped; keep the scheduled one.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[unchanged("transfers", sent["id"]), unchanged("transfers", later["id"]),
                    # that it was sent, not that it is "pending" (a customer hears "not gone yet")
                    says(fact("already been sent", why, "already sent", "already been processed", "already processed",
                              "already on its way", "already gone out", "already went out", "already left", "has been sent",
                              "was sent", "was already sent", "it's been sent", "has gone out", "went out", "is on its way",
                              "cannot be recalled", "can't be recalled", "cannot be stopped", "can't be stopped",
                              "can't be pulled back", "cannot be pulled back", "already gone", "has gone through",
                              "already gone through", "went through", "left your account", "pending", "in transit",
                              "already processing", "already in progress", "being processed", "processing", "in process",
                              "underway", "under way", "already out", "on the way", "already initiated", "initiated",
                              "already submitted", "already completed", "already executed", "already been made",
                              "already made", "already been paid", "already paid", "already been released",
                              "already released", "already on the way", "en route", "too late to", "too late",
                              "can't be reversed", "cannot be reversed", "can't be undone", "cannot be undone",
                              "can't be canceled once", "cannot be canceled once", "already in motion", "in flight"),  # policy: a pending transfer has been sent
                         # when it was created: today, in the customer's words or as a date ("the transfer you
                         # made today can't be cancelled" denies the cancelling, not the day)
                         fact("today", why, "this morning", day(0), may_be_negated=True)),
                    says_not(*[fact(day(n), "", near=("sent", "made", "created", "initiated", "went out", "submitted",
                                                      "set up", "transfer from", "payment from")) for n in range(1, 15)],
                             why=f"{why}: it was created today ({day(0)}), not on another day"),
                    ended("cancel", "refused", why, sent["id"]),
                    # a recall said to be under way in words the shared vocabulary does not read as waiting
                    under_way(("cancellation", "cancellation request", "request to cancel it", "request to cancel"),
                              ("a cancellation", "your cancellation", "the cancellation", "a request to cancel",
                               "your request to cancel", "a recall request", "a recall"),
                              why="a pending transfer cannot be recalled: no cancellation is under way")],
        wrong=[
            append(call("cancel_transfer", transfer_id=later["id"]), tag="wrong_entity",
                   note="cancels next month's scheduled transfer instead"),
            reply("I can't help with that transfer.", note="refuses without saying why"),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "transfers", "policy"],
    )


@template("an external transfer or a new payee for a customer whose KYC status is not verified: refuse with the reason")
def kyc_blocked_external(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    status = ["pending", "unverified", "rejected"][v % 3]
    c = s.customer(level=1, kyc_status=status)
    a = s.account(c, balance=money(rng.uniform(1500, 3000)))
    card = s.card(c, a)
    s.history(a, card, 3)
    amount = money(rng.choice([150.0, 300.0, 500.0]))
    add_new = v % 2 == 1
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("get_kyc_status", customer_id=c["id"])
    if add_new:
        name = s.person()
        bank = rng.choice(BANKS)
        routing, number = f"{rng.randint(10**8, 10**9 - 1)}", f"{rng.randint(10**7, 10**9)}"
        ask = f"I want to add {name} at {bank} as a payee (routing {routing}, account {number}) and send them {fmt(amount)}."
        bad = add_payee(c, name, bank, routing, number)
        payee = {"name": name, "bank": bank, "routing_number": routing, "account_number": number}
    else:
        p = s.payee(c, s.person())
        g.add("list_payees", customer_id=c["id"])
        ask = f"Please send {fmt(amount)} to {p['name']}."
        bad = call("create_transfer", from_account_id=a["id"], payee_id=p["id"], amount=amount)
        payee = {"name": p["name"]}
    why = {"pending": "your documents are still under review (this usually takes 2 business days)",
           "unverified": "you haven't submitted your ID documents yet: please submit them in the app",
           "rejected": "your last ID submission was rejected: please submit a new ID in the app"}[status]
    text = f"I can't do that yet: transfers to other banks and new payees need a completed KYC check, and {why}."
    reasons = [NEEDS_KYC]
    not_reviewed = []  # (said now, not of a submission to come: "once you resubmit, it will be under review")
    if status == "pending":
        reasons.append(under_review("policy, KYC: if the status is pending, say the documents are under review"))
    else:
        not_reviewed = [says_not(fact("is under review", "", *(f"{be} {st}" for be in ("are", "is", "still", "currently", "'s")
                                                              for st in ("under review", "being reviewed", "pending",
                                                                         "pending review", "in review", "being checked",
                                                                         "being processed", "awaiting review"))),
                                why=f"the KYC status is {status}: no documents are under review")]
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, a new customer who does not know about the KYC rules.",
            goal="Send money to another bank.",
            first_message=f"{who.intro} {ask}",
            facts={**who.facts(), "payee": payee, "amount": fmt(amount)},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[absent("transfers", customer_id=c["id"]), absent("payees", customer_id=c["id"], added_on=day(0)),
                    says(*reasons), *not_reviewed,
                    says_not(SENT_CLAIM, fact("payee has been added", "", "added the payee", "payee was added",
                                              "payee is added", "payee is set up", "set up the payee"),
                             why="nothing may be sent or added until the KYC check is complete"),
                    *refused_under_review("send", status == "pending", "policy, KYC: external transfers need a verified "
                                          "KYC status", c["id"], promises=SEND_PROMISES),
                    *(refused_under_review("add", status == "pending", "policy, KYC: new payees need a verified KYC status",
                                           c["id"]) if add_new else []),
                    # a transfer said to wait is a claim of its own ("send" hands a case on: its waiting is no stance)
                    under_way(("transfer", "payment", "transfer request", "payment request", "payee request"),
                              ("the transfer", "your transfer", "the payment", "your payment", "a transfer request"),
                              why="nothing is sent or added until the KYC check is complete: nothing is under way")],
        wrong=[
            append(bad, note="goes ahead although the KYC status is not verified"),
            reply("Sorry, I can't do that.", note="refuses without the reason"),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "kyc", "transfers", "policy"],
    )


@template("add a new payee and schedule the rent for the date the customer gives when asked")
def new_payee_scheduled(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = rng.choice([2, 3])
    c = s.customer(level=level)
    a = s.account(c, balance=money(rng.uniform(3000, 6000)))
    card = s.card(c, a)
    s.history(a, card, 3)
    old_payee = s.payee(c, s.person())
    name = s.person()
    bank = rng.choice(BANKS)
    routing, number = f"{rng.randint(10**8, 10**9 - 1)}", f"{rng.randint(10**7, 10**10)}"
    amount = money(rng.choice([950.0, 1250.0, 1475.0, 1800.0, 2100.0]))
    when = day(-rng.randint(2, 20))
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_payees", customer_id=c["id"])
    g.calls.append(add_payee(c, name, bank, routing, number))
    add = len(g) - 1
    g.add("get_transfer_limits", customer_id=c["id"], on_date=when)
    k = g.add("create_transfer", from_account_id=a["id"], payee_id=f"PY-{NEW}", amount=amount, scheduled_for=when, memo="Rent")
    text = (f"I've added {name} at {bank} (account ending {number[-4:]}) as a payee and scheduled {fmt(amount)} to them for "
            f"{when}.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, moving into a new flat; the landlord is {name}.",
            goal=f"Add {name} as a payee and schedule the {fmt(amount)} rent for {when}.",
            first_message=f"{who.intro} I need to pay rent to my new landlord, {name}: {fmt(amount)} to {bank}, routing "
                          f"{routing}, account {number}. Please schedule it.",
            facts={**who.facts(), "payee": {"name": name, "bank": bank, "routing_number": routing, "account_number": number},
                   "amount": fmt(amount), "payment_date": when, "date": when},
            instructions=f"Only give the date ({when}) when the agent asks when the payment should go out.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("payees", id=f"PY-{NEW}", customer_id=c["id"], account_last4=number[-4:]),
                    exists("transfers", payee_id=f"PY-{NEW}", amount=amount, scheduled_for=when, status="scheduled"),
                    says(fact(fmt(amount), WHY_TRANSFER), fact(name, WHY_TRANSFER), fact(when, WHY_TRANSFER),
                         TRANSFER_DONE),
                    ended("add", "done", WHY_DONE, f"PY-{NEW}", name), not_sent_yet(when),
                    # the saved payee in the new one's role ("scheduled 1,475.00 to Ulric Okafor"), if one is named
                    says_not(*[fact(x, "", owner=("to", "schedul", "pay", "send", "sent", "rent", "new payee", "added", "saved"),
                                    rivals=(*STAYS, "existing", "already", "other", "saved payee", "on file"))
                               for x in ({old_payee["name"]} - {name})],
                             why="the rent goes to the new payee, not the payee already saved"),
                    *requested(g.calls, tools=("create_transfer",), verbs={"create_transfer": "schedule"}),
                    # the date comes only when asked: no call names it before (the limits check for it is the first)
                    no_call(mentions=[when], until_asked=DATE_TOPICS, why=ASK_RULE,
                            ask="On which date should the rent payment go out?")],
        wrong=[
            replace({k: call("create_transfer", from_account_id=a["id"], payee_id=f"PY-{NEW}", amount=amount)},
                    tag="wrong_entity", note="sends the rent now instead of on the date the customer gives"),
            replace({k: call("create_transfer", from_account_id=a["id"], payee_id=f"PY-{NEW}", amount=money(amount - 100),
                             scheduled_for=when)}, tag="wrong_amount", note="schedules the wrong amount"),
            drop(add, note="never saves the payee (the transfer is refused)"),
        ],
        kind="ask_user", difficulty="hard", skills=["verification", "payees", "transfers", "clarification"],
    )


@template("schedule a transfer to savings; the amount and the date come only when the agent asks")
def scheduled_internal_ask(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]), kyc_status=rng.choice(["verified", "pending"]))
    a, sv, card = s.checking_and_savings(c, money(rng.uniform(2000, 3500)), money(rng.uniform(500, 4000)))
    amount = money(rng.choice([100.0, 250.0, 400.0, 500.0, 750.0]))
    when = day(-rng.randint(2, 25))
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    k = g.add("create_transfer", from_account_id=a["id"], to_account_id=sv["id"], amount=amount, scheduled_for=when, memo="Savings")
    text = f"Done: {fmt(amount)} will move from {a['nickname']} to {sv['nickname']} on {when}."
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, sets money aside after payday; answers only what is asked.",
            goal=f"Schedule {fmt(amount)} from checking to savings on {when}.",
            first_message=f"{who.intro} I'd like to set up a transfer from my checking to my savings.",
            # (`amount` alone: "how much would you like to move?" names no transfer, and the user answers by key words)
            # ("date" too: "what date would you like?" names no transfer)
            facts={**who.facts(), "amount": fmt(amount), "transfer_date": when, "date": when},
            instructions=f"Give the amount ({fmt(amount)}) and the date ({when}) only when the agent asks.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("transfers", from_account_id=a["id"], to_account_id=sv["id"], amount=amount, scheduled_for=when),
                    says(fact(fmt(amount), WHY_TRANSFER), fact(when, WHY_TRANSFER), TRANSFER_DONE),
                    *[ended(verb, "done", WHY_DONE, f"TR-{NEW}") for verb in ("schedule", "transfer")],
                    direction(a, sv, f"{WHY_TRANSFER}: the money goes from checking to savings"), not_sent_yet(when),
                    # the customer gives the amount and the date only when asked: each is a question of its own
                    no_call("create_transfer", until_asked=AMOUNT_TOPICS, why=ASK_RULE,
                            ask="How much would you like to move to your savings?"),
                    no_call("create_transfer", until_asked=DATE_TOPICS, why=ASK_RULE,
                            ask="And on which date should the transfer go through?")],
        wrong=[
            replace({k: call("create_transfer", from_account_id=a["id"], to_account_id=sv["id"], amount=amount)},
                    tag="wrong_entity", note="moves the money today instead of on the date"),
            replace({k: call("create_transfer", from_account_id=a["id"], to_account_id=sv["id"], amount=money(amount * 2),
                             scheduled_for=when)}, tag="wrong_amount", note="schedules the wrong amount"),
        ],
        kind="ask_user", difficulty="medium", skills=["verification", "transfers", "clarification"],
    )


# =================================================================================================
# fees
# =================================================================================================


@template("refund a recent fee within the courtesy allowance; another fee stays", extra_train=True)
def fee_refund_courtesy(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = [1, 2, 3][v % 3]
    c = s.customer(level=level)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    s.fee_history(c, a, LEVELS[level].refunds - 1)
    code = ["overdraft", "returned_payment", "atm_out_of_network"][v % 3]
    f = s.fee(a, code, day(rng.randint(3, 40)))
    other = s.fee(a, "monthly_maintenance", day(29))
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], kind="fee")
    g.add("list_fee_refunds", customer_id=c["id"])
    k = g.add("refund_fee", transaction_id=f["id"], reason=f"Courtesy refund of the {FEE_NAMES[code]}")
    amt = -f["amount"]
    text = f"I've refunded the {FEE_NAMES[code]} of {fmt(amt)} from {f['posted_on']}; the money is back in your account now."
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, annoyed by a recent {FEE_NAMES[code]}.",
            goal=f"Get the {FEE_NAMES[code]} of {fmt(amt)} from {f['posted_on']} refunded.",
            first_message=f"{who.intro} I was charged a {FEE_NAMES[code]} of {fmt(amt)} recently. Can you refund it? "
                          "Just that one.",
            facts={**who.facts(), "fee": f"the {FEE_NAMES[code]} of {fmt(amt)}"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("fee_refunds", fee_transaction_id=f["id"]), absent("fee_refunds", fee_transaction_id=other["id"]),
                    says(fact(fmt(amt), WHY_REFUND, near=REFUNDED), REFUND_DONE),
                    # the other fee's name or amount as the refunded one's ("the 35.00 monthly maintenance fee")
                    says_not(fact(FEE_NAMES["monthly_maintenance"], "", "maintenance fee", owner=(fmt(amt), *REFUNDED),
                                  rivals=(fmt(-other["amount"]), *STAYS, "not refunded", "isn't refunded", "only")),
                             why="the refunded fee is the one the customer asked about, not the monthly maintenance fee"),
                    *([says_not(fact(other["posted_on"], "", owner=(fmt(amt), FEE_NAMES[code], *REFUNDED),
                                     rivals=(FEE_NAMES["monthly_maintenance"], "maintenance", "monthly", fmt(-other["amount"]),
                                             *STAYS, "not refunded", "isn't refunded", "only")),
                                why="the refunded fee is the one the customer asked about, posted on "
                                    f"{f['posted_on']}, not the monthly fee of {other['posted_on']}")]
                      if other["posted_on"] != f["posted_on"] else []),
                    *requested(g.calls, names={f["id"]: [FEE_NAMES[code], fmt(amt)]},
                               others={f["id"]: [other["id"], FEE_NAMES["monthly_maintenance"], "monthly", fmt(-other["amount"])]})],
        wrong=[
            replace({k: call("refund_fee", transaction_id=other["id"], reason="Courtesy refund")}, tag="wrong_entity",
                    note="refunds the monthly fee instead"),
            append(call("refund_fee", transaction_id=other["id"], reason="Courtesy refund"),
                   note="also refunds a fee the customer did not ask about"),
            drop(VERIFY, note="refunds without verifying the customer"),
        ],
        kind="single_write", difficulty="medium", skills=["verification", "fees", "policy"],
    )


@template("a fee refund beyond the courtesy allowance: a supervisor approves it; noted on the customer's ticket")
def fee_refund_over_allowance(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = [1, 2, 2][v % 3]
    allowance = LEVELS[level].refunds
    c = s.customer(level=level)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    s.fee_history(c, a, allowance)
    code = ["overdraft", "returned_payment"][v % 2]
    f = s.fee(a, code, day(rng.randint(3, 30)))
    other = s.fee(a, "monthly_maintenance", day(29))
    tk = s.ticket(c, f"Refund of {FEE_NAMES[code]}", "fee", account=a, created=day(1))
    amt = -f["amount"]
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], kind="fee")
    g.add("list_fee_refunds", customer_id=c["id"])
    approval = g.add("request_supervisor_approval", customer_id=c["id"], kind="fee_refund", reference_id=f["id"],
                     amount=amt, reason="Courtesy allowance used up; customer asks for a refund")
    g.add("refund_fee", transaction_id=f["id"], reason=f"Refund of the {FEE_NAMES[code]}", approval_id=f"AP-{NEW}")
    note = g.add("add_ticket_note", ticket_id=tk["id"], note=f"Fee {f['id']} refunded ({amt}) with supervisor approval AP-{NEW}.")
    text = (f"You've already used your {allowance} courtesy fee refund{'s' if allowance > 1 else ''} for this year, so I asked "
            f"a supervisor, who approved it: the {FEE_NAMES[code]} of {fmt(amt)} is refunded to your account. I've noted it on "
            f"ticket {tk['id']}.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, a long-time customer asking for a refund of a {FEE_NAMES[code]}.",
            goal=f"Get the {FEE_NAMES[code]} of {fmt(amt)} refunded (ticket {tk['id']}).",
            first_message=f"{who.intro} I opened ticket {tk['id']} about the {FEE_NAMES[code]} of {fmt(amt)}. Can you "
                          "refund it? Only that fee, please.",
            facts={**who.facts(), "fee": f"the {FEE_NAMES[code]} of {fmt(amt)}", "ticket": tk["id"]},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("fee_refunds", fee_transaction_id=f["id"], approval_id=f"AP-{NEW}"),
                    exists("ticket_notes", ticket_id=tk["id"], author="agent"), says(fact(fmt(amt), WHY_REFUND, near=REFUNDED), REFUND_DONE),
                    *requested(g.calls, tools=("refund_fee",), names={f["id"]: [FEE_NAMES[code], fmt(amt)]},
                               others={f["id"]: [other["id"], FEE_NAMES["monthly_maintenance"], "monthly", fmt(-other["amount"])]})],
        wrong=[
            replace({approval: call("refund_fee", transaction_id=f["id"], reason="Courtesy refund")}, tag="skipped_approval",
                    note="refunds beyond the allowance without asking a supervisor"),
            drop(note, note="does not note the refund on the customer's ticket"),
            append(call("refund_fee", transaction_id=other["id"], reason="Courtesy refund"), note="also refunds the monthly fee"),
        ],
        kind="approval", difficulty="hard", skills=["verification", "fees", "approval", "tickets"],
    )


@template("a fee refund beyond the allowance that the supervisor denies: no refund, the customer's ticket is escalated")
def fee_refund_denied(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = [1, 2, 3][v % 3]
    allowance = LEVELS[level].refunds
    c = s.customer(level=level, risk=True)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    s.fee_history(c, a, allowance)
    code = ["overdraft", "returned_payment", "overdraft"][v % 3]
    f = s.fee(a, code, day(rng.randint(3, 30)))
    tk = s.ticket(c, f"Please refund the {FEE_NAMES[code]}", "fee", account=a, created=day(2))
    amt = -f["amount"]
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], kind="fee")
    g.add("list_fee_refunds", customer_id=c["id"])
    g.add("request_supervisor_approval", customer_id=c["id"], kind="fee_refund", reference_id=f["id"], amount=amt,
          reason="Courtesy allowance used up; customer asks for a refund")
    g.add("get_ticket", ticket_id=tk["id"])
    escalate = g.add("escalate_ticket", ticket_id=tk["id"], reason="Supervisor denied the fee refund")
    text = (f"You've used all {allowance} courtesy fee refund{'s' if allowance > 1 else ''} for this year, and the refund of the "
            f"{fmt(amt)} {FEE_NAMES[code]} could not be approved, so I can't refund it. I've escalated ticket {tk['id']}; a "
            "specialist will contact you within one business day.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, insists on getting the {FEE_NAMES[code]} back.",
            goal=f"Get the {FEE_NAMES[code]} of {fmt(amt)} refunded.",
            first_message=f"{who.intro} I want the {FEE_NAMES[code]} of {fmt(amt)} refunded. I already have ticket "
                          f"{tk['id']} open about it.",
            facts={**who.facts(), "fee": f"the {FEE_NAMES[code]} of {fmt(amt)}", "ticket": tk["id"]},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[absent("fee_refunds", fee_transaction_id=f["id"]), exists("tickets", id=tk["id"], status="escalated"),
                    says(NOT_APPROVED, SPECIALIST_CALLBACK), must_not_disclose(*RISK_WORDS, why=WHY_RISK),
                    says_not(REFUND_CLAIM, why="the supervisor denied the refund: the fee stays"),
                    # refused by the supervisor and handed on to a specialist
                    ended("refund", "not_done", "the supervisor denied the refund; the ticket is escalated", f["id"])],
        wrong=[
            append(call("refund_fee", transaction_id=f["id"], reason="Goodwill"), tag="skipped_approval",
                   note="refunds anyway after the supervisor said no"),
            drop(escalate, note="does not escalate the ticket"),
        ],
        kind="approval", difficulty="hard", skills=["verification", "fees", "approval", "escalation"],
    )


@template("a fee posted more than 90 days ago is not refunded: decline with the posting date and the rule")
def fee_refund_too_old(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2, 3]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    code = ["overdraft", "returned_payment", "monthly_maintenance"][v % 3]
    f = s.fee(a, code, day(rng.choice([97, 104, 121, 143])))
    s.fee(a, "paper_statement", day(rng.randint(5, 20)))
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], kind="fee")
    text = (f"I'm sorry, I can't refund that {FEE_NAMES[code]}: fees can be refunded only within 90 days of being charged, and "
            f"this one was posted on {f['posted_on']}.")
    why = "policy, Fees: older fees are declined, citing the posting date and the 90-day rule"
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, going through old statements.",
            goal=f"Get the {FEE_NAMES[code]} from {f['posted_on']} refunded.",
            first_message=f"{who.intro} Going through my statements I found a {FEE_NAMES[code]} of {fmt(-f['amount'])} from "
                          "back in the summer. I'd like it refunded - only that one.",
            facts={**who.facts(), "fee": f"the {FEE_NAMES[code]} of {fmt(-f['amount'])} from the summer"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[absent("fee_refunds", fee_transaction_id=f["id"]), says(fact(f["posted_on"], why), fact("90 days", why, "3 months")),
                    says_not(REFUND_CLAIM, why="a fee older than 90 days is not refunded"),
                    ended("refund", "refused", why, f["id"])],
        wrong=[
            append(call("refund_fee", transaction_id=f["id"], reason="Customer request"), note="refunds a fee older than 90 days"),
            reply("I'm sorry, I can't refund that fee.", note="declines without the rule and the date"),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "fees", "policy", "dates"],
    )


@template("two fees and one courtesy refund left: the older fee uses it, the newer one needs a supervisor")
def two_fee_refunds(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = [2, 3, 2][v % 3]
    c = s.customer(level=level)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    s.fee_history(c, a, LEVELS[level].refunds - 1)
    f1 = s.fee(a, "overdraft", day(rng.randint(30, 60)))
    f2 = s.fee(a, rng.choice(["overdraft", "returned_payment"]), day(rng.randint(2, 12)))
    who = s.identify(c, card=card)
    amt1, amt2 = -f1["amount"], -f2["amount"]
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("list_transactions", account_id=a["id"], kind="fee")
    g.add("list_fee_refunds", customer_id=c["id"])
    g.add("refund_fee", transaction_id=f1["id"], reason="Courtesy refund (last one of the year)")
    approval = g.add("request_supervisor_approval", customer_id=c["id"], kind="fee_refund", reference_id=f2["id"],
                     amount=amt2, reason="Second fee beyond the courtesy allowance")
    k = g.add("refund_fee", transaction_id=f2["id"], reason="Refund approved by a supervisor", approval_id=f"AP-{NEW}")
    text = (f"I've refunded the {fmt(amt1)} fee from {f1['posted_on']} with your last courtesy refund of the year. The "
            f"{fmt(amt2)} fee from {f2['posted_on']} was beyond your allowance, so I asked a supervisor, who approved it: both "
            f"are refunded, {fmt(amt1 + amt2)} in total.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, had a rough couple of months and was hit by two fees.",
            goal=f"Get both recent fees refunded ({fmt(amt1)} on {f1['posted_on']} and {fmt(amt2)} on {f2['posted_on']}).",
            first_message=f"{who.intro} I got hit with two fees recently, {fmt(amt1)} and {fmt(amt2)}. Can you refund both?",
            facts={**who.facts(), "fees": f"both recent fees, {fmt(amt1)} and {fmt(amt2)}"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("fee_refunds", fee_transaction_id=f1["id"], approval_id=None),
                    exists("fee_refunds", fee_transaction_id=f2["id"], approval_id=f"AP-{NEW}"),
                    says(*refunds_told(amt1, amt2), REFUND_DONE),
                    says_not(NOT_REFUNDED, why="both fees were refunded (the second with a supervisor's approval); "
                                               "neither may be said to stay unrefunded"),
                    # each fee's date in the other's role: the newer fee said to take the courtesy refund, the older
                    # one the supervisor's approval (pattern: a real value in the wrong role)
                    says_not(fact(f2["posted_on"], "", owner=COURTESY, rivals=APPROVED_WAY),
                             fact(f1["posted_on"], "", owner=APPROVED_WAY, rivals=COURTESY),
                             why="policy, Fees: fees are handled oldest first: the older fee took the last courtesy refund, "
                                 "the newer one needed the supervisor's approval"),
                    *requested(g.calls)],
        wrong=[
            replace({approval: call("refund_fee", transaction_id=f2["id"], reason="Courtesy refund")}, tag="skipped_approval",
                    note="refunds the second fee beyond the allowance without a supervisor"),
            drop(k, note="refunds only one of the two fees"),
        ],
        kind="multi_step", difficulty="hard", skills=["verification", "fees", "approval", "policy"],
    )


COURTESY = ("courtesy", "allowance", "free refund", "last refund", "remaining refund", "included")
APPROVED_WAY = ("supervisor", "approv", "beyond", "exceed", "over your", "outside", "not covered", "no courtesy",
                "used up", "already used", "no more", "no refunds left", "no longer")
"""How a fee refund was made: within the courtesy allowance, or beyond it with a supervisor's approval."""

REFUNDED = ("refund", "back", "credited", "returned", "reimburs", "reversed", "waived", "total")
"""What makes an amount the refunded one (cues match word starts: "refunded", "reimbursed")."""


def refunds_told(*amounts: float) -> list[dict[str, Any]]:
    """The refunded amounts (policy, Fees: tell the customer the amount refunded): each one ("I've
    refunded $35.00 and $29.00"), or the total ("$64.00 in total is back"), which says them all
    as the customer asked for all of them. No `near` on the amounts: the fee and its refund are
    the same amount, and "Refunded: $35.00 and $29.00" (a colon ends a clause) must pass. Where
    two are equal, one amount cannot say both were refunded: "both", "each", "two" or "second"
    must be said of the refunds."""
    total = fmt(sum(amounts))
    whole = [fact(total, WHY_REFUND)]
    if len(set(amounts)) == len(amounts):
        return [fact(fmt(a), WHY_REFUND, alternatives=whole) for a in amounts]
    # equal amounts: one of them said as the total ("both refunded, 35.00 in total" when 70.00 was) is wrong, and
    # "both" must be said of the refunds (not "second", which a reply refusing the second fee says too)
    out = [fact(fmt(a), WHY_REFUND, owner=(*REFUNDED[:-1], "fee", "each", "both"), rivals=TOTAL_WORDS, alternatives=whole)
           for a in dict.fromkeys(amounts)]
    # (or the second said refunded "too" or "as well" after the first: "... and the fee from 11-27 has been refunded too")
    out.append(fact("both", f"{WHY_REFUND}: the customer asked for every one of these fees", "each", "two", "all",
                    total, "too", "as well", near=REFUNDED))
    return out


def remaining_is(remaining: float, *others: float) -> dict[str, Any]:
    """What is left of the day's transfer limit said with another of its figures (the level's whole limit, or what was
    already used): "your remaining daily limit of 1,000.00", "you have 200.00 left" when 800.00 is (pattern: a real value
    in the wrong role)."""
    pre = ("remaining daily limit of", "remaining limit of", "remaining daily limit is", "remaining limit is",
           "remaining daily transfer limit of", "remaining transfer limit of", "remaining:", "remaining is", "remaining of",
           "remaining allowance of", "left today is", "available today is")
    post = ("left", "remains", "is left", "still available", "left today", "left for today", "available today",
            "remaining today", "of room")
    vals = [fmt(x) for x in others if money(x) != money(remaining)]
    said = [f"{p} {v}" for v in vals for p in pre]
    said += [f"{v} {q}" for v in vals for q in post]
    return says_not(phrases(said[0], "", said), why=f"policy, Transfers: {fmt(remaining)} of today's limit remains; "
                                                     "no other figure is what is left")


SENT_CLAIM = fact("has been sent", "", "was sent", "i've sent", "i have sent", "is on its way", "is on the way", "went through",
                  "has gone through", "has been transferred", "was transferred", "i've transferred", "i have transferred",
                  "has been processed", "was processed", "has been scheduled", "is scheduled", "supervisor approved",
                  *[f"{what} {be} approved" for what in ("transfer", "payment", "it", "request", "limit")
                    for be in ("was", "has been")],
                  "transfer is approved", "payment is approved", "request is approved", "i've scheduled", "i have scheduled")
"""A transfer said as made (or approved); "nothing was sent" is its denial, not the claim."""
LIMIT_WORDS = ("your limit", "the limit", "your daily limit", "the daily limit", "your transfer limit", "the transfer limit",
               "your daily transfer limit", "the daily transfer limit", "your external transfer limit", "your sending limit")
LIMIT_RAISED = phrases("raised your limit", "", [
    *[f"{pp} {obj}" for pp in ("raised", "increased", "lifted", "extended", "upped", "bumped up", "bumped", "doubled")
      for obj in (*LIMIT_WORDS, "it for today", "your limits")],
    *[f"limit {aux} {pp}" for aux in ("has been", "was", "is now", "is", "has now been")
      for pp in ("raised", "increased", "lifted", "extended", "upped", "bumped up", "doubled", "higher")],
    "higher limit is in place", "new limit is", "limit is now"])
"""The transfer limit said to have been raised (pattern E: no tool raises it; only a supervisor's one-off approval
sends more): "I've raised your daily limit", "your limit is now 5,000.00"; "a higher KYC level raises the limit" and
"I can't raise your limit" are none."""
SENT_LATER = phrases("will send the payment", "", [
    *[f"{who} {verb} {obj}" for who in ("will", "i'll", "we'll", "they'll", "specialist will")
      for verb in ("send", "make", "process", "complete", "push through")
      for obj in ("the payment", "the transfer", "the money", "it", "the rest", "the remaining", "the remainder")],
    *[f"{aux} split" for aux in ("i've", "i have", "has been", "have been", "was", "i")],
    *[f"will {go} {when}" for go in ("go out", "be sent", "be transferred", "be paid") for when in ("today", "tomorrow", "in two")]])
"""A denied transfer said to go out later after all (the specialist "will send the payment", "I've split it, the rest
will go out tomorrow"): the customer would count on money that no one is sending."""
REFUND_CLAIM = fact("has been refunded", "", "was refunded", "is refunded", "i've refunded", "i have refunded",
                    "is back in your account", "back in your account", "refund has been issued", "refund was issued",
                    "refund is approved", "refund was approved", "refund has been approved", "credited back",
                    "have been credited", "has been credited", "been reversed", "been waived", "i've waived", "i have waived")
"""A fee said as refunded; "I can't refund it" is its denial, not the claim."""
TRANSFER_UNDONE = phrases("has been reversed", "", [
    *done("reversed", "returned", "undone", "rolled back", "bounced", "sent back", "pulled back", "recalled",
          objects=("the transfer", "your transfer", "the payment", "the money", "it")),
    "transfer bounced", "payment bounced", "transfer was rejected", "transfer was declined"])
"""A transfer said as taken back after it was made ("the transfer was reversed by our system"; the shared
vocabulary reads "reversed by ..." as a rule, not a report); "it can't be reversed" is none."""
HOLD_RELEASED = phrases("has been released", "", [
    *done("released", "lifted", "removed", "cleared", "taken off", past=("took off",),
          objects=("the hold", "that hold", "this hold", "your hold", "it", "the authorization", "that authorization")),
    "hold is gone", "hold is off", "took the hold off", "taken the hold off", "took it off", "taken it off",
    "no longer on hold", "no longer held", "no longer being held", "not on hold anymore"])
"""A hold said as released by the agent; "it is released automatically on 2026-12-03", "holds on checks are never
released early" and "I can't release it" are none."""

TOTAL_WORDS = ("total", "in all", "altogether", "combined", "together", "overall", "sum")
NOT_REFUNDED = fact("not refunded", "", "couldn't be refunded", "could not be refunded", "can't be refunded",
                    "cannot be refunded", "wasn't refunded", "weren't refunded", "not been refunded", "not be refunded",
                    "won't be refunded", "isn't refunded", "didn't refund", "did not refund", "refund was denied", "refund was declined", "refund was rejected", "not approved", "wasn't approved",
                    "not be approved", "was denied", "was declined", "was rejected", "remains on your account",
                    "stays on your account", "still stands", "still applies", may_be_negated=True)
"""A fee said as not refunded (the phrases carry their own negation)."""


# =================================================================================================
# holds, KYC, profile, tickets
# =================================================================================================


@template("release a card authorization hold older than 7 days; a recent authorization and a check hold stay")
def release_auth_hold(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    bal = money(rng.uniform(1200, 2600))
    a = s.account(c, balance=bal)
    card = s.card(c, a)
    s.history(a, card, 3)
    hotel = HOTELS[v % len(HOTELS)]
    amount = rng.choice([150.0, 200.0, 250.0, 400.0])
    old = s.hold(a, "card_authorization", amount, f"Authorization: {hotel}", day(rng.randint(9, 14)), day(-rng.randint(15, 20)))
    recent = s.hold(a, "card_authorization", 60.0, "Authorization: QuickFuel Gas", day(2), day(-28))
    deposit = s.hold(a, "check_deposit", rng.choice([300.0, 520.0]), "Mobile check deposit", day(1), day(-4))
    avail = money(bal - 60.0 - deposit["amount"])
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("get_account", account_id=a["id"])
    k = g.add("release_hold", hold_id=old["id"], reason=f"Stay at {hotel} is over; authorization older than 7 days")
    text = (f"I've released the {fmt(amount)} authorization hold from {hotel}; your available balance is now {fmt(avail)}. "
            "The other holds (a recent fuel authorization and your check deposit) release by themselves.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, checked out of {hotel} over a week ago; the deposit hold is still there.",
            goal=f"Have the {hotel} authorization hold released.",
            first_message=f"{who.intro} {hotel} still has a hold of {fmt(amount)} on my account and I checked out ages ago. "
                          "Can you release it? Only the hotel one.",
            facts={**who.facts(), "hold": f"the {fmt(amount)} {hotel} one"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("holds", id=old["id"], status="released"), unchanged("holds", recent["id"]),
                    unchanged("holds", deposit["id"]),
                    says(phrases("has been released", f"{WHY_CHANGED}: the customer asked to release the hold", [
                        *done("released", "lifted", "removed", "cleared", "taken off", past=("took off",),
                              objects=("the", "it", "that", "your")),
                        "hold is gone", "hold is off", "taken the hold off", "taken it off", "took the hold off",
                        "took it off", "no longer on your account", "no longer on hold", "no longer held",
                        "no longer being held", "not on hold anymore", "off your account", "released:", "hold released",
                        *[f"{what} {be} {pp}" for what in ("hold", "authorization", "it") for be in ("is", "is now", "are")
                          for pp in ("released", "lifted", "removed", "cleared")],
                        *[f"{what} {state}" for what in ("hold", "authorization", "authorisation")
                          for state in ("released", "lifted", "removed", "cleared")]])),
                    says_not(*[fact(fmt(h["amount"]), "", owner=(hotel.lower(), "hotel"), rivals=hold_names(h)[2:] or ("check",))
                               for h in (recent, deposit) if h["amount"] != amount],
                             fact(fmt(bal), "", owner=("available",), rivals=("ledger", "total", "current balance", "book")),
                             why="the released hold is the hotel's, of its own amount, and the available balance is the "
                                 "balance less the holds that stay"),
                    *requested(g.calls, names={old["id"]: [hotel, "hotel", fmt(amount)]},
                               others={old["id"]: [recent["id"], deposit["id"], "fuel", "quickfuel", "check deposit",
                                                   "deposited check", "mobile check"]})],
        wrong=[
            replace({k: call("release_hold", hold_id=recent["id"], reason="Customer request")}, tag="wrong_entity",
                    note="releases the recent fuel authorization"),
            append(call("release_hold", hold_id=deposit["id"], reason="Customer request"), note="also releases the check-deposit hold"),
        ],
        kind="distractor", difficulty="medium", skills=["verification", "holds", "policy", "disambiguation"],
    )


@template("a hold that must stay (an authorization placed within 7 days, or a check deposit): say why and when it releases")
def hold_too_recent(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    merchant = ["CarGo Rentals", HOTELS[v % len(HOTELS)], "QuickFuel Gas"][v % 3]
    deposit = v % 4 == 3
    if deposit:
        h = s.hold(a, "check_deposit", rng.choice([450.0, 800.0]), "Mobile check deposit", day(2), day(-3))
        text = (f"I can't release that hold: holds on deposited checks are never released early. The {fmt(h['amount'])} will be "
                f"available by itself on {h['release_on']}.")
        what = "the check I deposited"
        rule = fact("early", "policy, Holds: a check-deposit hold is never released early; say why when declining",
                    "before the release date", "before its release date", "before it releases", "ahead of schedule",
                    "until it clears", "until the check clears", may_be_negated=True)  # "never released early"
    else:
        h = s.hold(a, "card_authorization", rng.choice([120.0, 250.0, 300.0]), f"Authorization: {merchant}",
                   day(rng.randint(2, 6)), day(-rng.randint(20, 28)))
        text = (f"I can't release the {fmt(h['amount'])} {merchant} authorization yet: we can release an authorization only "
                f"once it is more than 7 days old, and this one was placed on {h['placed_on']}. It releases by itself on "
                f"{h['release_on']} at the latest.")
        what = f"the {merchant} authorization"
        rule = phrases("more than a week", "policy, Holds: only an authorization placed more than 7 days ago may be "
                       "released; say why when declining",
                       [f"{than} {span}" for than in ("more than", "over", "older than", "less than", "under", "at least",
                                                      "after")
                        for span in ("7 days", "a week", "1 week")]
                       + [f"{within} {span}" for within in ("within the last", "in the last", "within the past", "in the past")
                          for span in ("7 days", "week")] + [
                          "7 days old", "a week old", "7 days ago", "a week ago", "7-day rule", "7-day window",
                          "7-day limit", "7-day policy",
                          # the rule as its date: "holds placed on or before 2026-11-22 may be released"
                          f"on or before {day(8)}", f"before {day(7)}", f"no later than {day(8)}"])
        rule["may_be_negated"] = True  # "we can't release holds less than 7 days old"
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    g.add("get_account", account_id=a["id"])
    # the release date, not the date the hold was placed
    release = fact(h["release_on"], "policy, Holds: tell the customer when a hold that must stay releases by itself",
                   owner=("releas", "available", "drop", "clear", "lift", "expire", "fall off", "falls off", "by itself",
                          "automatic", "free up", "freed", "until", "on its own", "gone", "end", "removed", "come off"),
                   rivals=("placed", "put on", "since", "created", "made", "deposited on", "started", "authorized on",
                           "was put"))
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, wants access to all their money right now.",
            goal=f"Have the hold for {what} released.",
            first_message=f"{who.intro} There's a hold on my account for {what} ({fmt(h['amount'])}). Please remove it, I need the money.",
            facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[unchanged("holds", h["id"]), says(rule, release),
                    # not released by the agent ("it's released automatically on <date>" is true, and no report),
                    # nor lifted or removed, which the shared vocabulary does not know for "release"
                    ended("release", "refused", "policy, Holds: this hold may not be released early", h["id"]),
                    says_not(HOLD_RELEASED, why="policy, Holds: this hold may not be released early; it stays until "
                                                "its release date")],
        wrong=[
            append(call("release_hold", hold_id=h["id"], reason="Customer needs the money"),
                   note="releases a hold the policy says must stay"),
            reply("Sorry, I can't release that hold.", note="declines without the rule and the date"),
            reply(f"I can't release that hold yet: it was placed on {h['release_on']}, and it releases by itself on "
                  f"{h['placed_on']}.", note="swaps the date the hold was placed and the date it releases"),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "holds", "policy", "dates"],
    )


@template("raise the KYC level the customer asks for, whose documents are all approved (an old rejected one aside)")
def kyc_upgrade(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    to3 = v % 2 == 1
    current, target = (2, 3) if to3 else (1, 2)
    docs = [("government_id", "approved"), ("proof_of_address", "approved")]
    if to3:
        docs.append(("income_verification", "approved"))
    docs.append(("proof_of_address", "rejected"))  # an earlier attempt, superseded
    c = s.customer(level=current, docs=docs, joined=day(rng.randint(300, 1500)))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_kyc_status", customer_id=c["id"])
    k = g.add("upgrade_kyc_level", customer_id=c["id"], level=target)
    name = LEVELS[target].name
    text = f"Your documents meet the requirements, so I've upgraded your account to the {name} level."
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, uploaded the last document last week and wants the higher limits.",
            goal=f"Move up to KYC level {target} ({name}).",
            first_message=f"{who.intro} I've uploaded all my documents. Can you upgrade me to the {name} level?",
            facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("customers", id=c["id"], kyc_level=target),
                    says(fact(name, f"{WHY_CHANGED}: the new KYC level the customer asked for", f"level {target}"), UPGRADED),
                    level_role(target, f"the account was upgraded to level {target} ({name}), not another level", now=True),
                    *requested(g.calls)],
        wrong=[
            replace({k: call("upgrade_kyc_level", customer_id=c["id"], level=2 if to3 else 3)}, tag="wrong_amount",
                    note="upgrades to a different level than asked"),
            drop(VERIFY, note="changes the profile without verifying the customer"),
        ],
        kind="single_write", difficulty="medium", skills=["verification", "kyc", "policy"],
    )


@template("a KYC upgrade whose requirement is missing: refuse and name exactly what is missing")
def kyc_upgrade_refusal(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    case = v % 4
    why = "policy, KYC: if a requirement is missing, tell the customer exactly which document (or what else) is missing"
    if case == 0:  # proof of address still under review
        c = s.customer(level=1, docs=[("government_id", "approved"), ("proof_of_address", "pending_review")])
        target, reason = 2, "your proof of address is still under review"
        missing = [fact("proof of address", why, "address proof", "proof of your address", "address document",
                        "address verification", may_be_negated=True), under_review(why)]
    elif case == 1:  # government id expired
        expired = day(rng.randint(20, 90))
        c = s.customer(level=1, docs=[("government_id", "approved", expired), ("proof_of_address", "approved")])
        target, reason = 2, f"your government ID expired on {expired}; please upload a valid one"
        missing = [fact("government ID", why, "your ID", "photo ID", "ID document", "ID card", "government-issued ID",
                        "identity document", "identification document", "your identification", "passport",
                        "driver's license", may_be_negated=True),
                   fact("expired", why, "no longer valid", "out of date", "lapsed", "not valid", "isn't valid", "invalid",
                        "past its expiry", "past its expiration", "expiry date has passed", "expiration date has passed")]
    elif case == 2:  # level 3, customer for less than 180 days
        joined = day(rng.randint(60, 150))
        c = s.customer(level=2, joined=joined, docs=[("government_id", "approved"), ("proof_of_address", "approved"),
                                                     ("income_verification", "approved")])
        target, reason = 3, f"the premium level needs you to have been a customer for at least 180 days, and you joined on {joined}"
        # (or the rule as a date: a customer since at least <today - 180 days>, or eligible from <joined + 180 days>)
        eligible = (date.fromisoformat(joined) + timedelta(days=180)).isoformat()
        missing = [fact("180 days", why, "6 months", "six months", (TODAY - timedelta(days=180)).isoformat(), eligible)]
    else:  # level 3, income verification rejected
        c = s.customer(level=2, docs=[("government_id", "approved"), ("proof_of_address", "approved"),
                                      ("income_verification", "rejected")])
        target, reason = 3, "your income verification was rejected; please upload a new one"
        missing = [fact("income verification", why, "proof of income", "income document", may_be_negated=True),
                   fact("rejected", why, "not approved", "not accepted", "declined", "denied", "turned down")]
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_kyc_status", customer_id=c["id"])
    name = LEVELS[target].name
    text = f"I can't upgrade you to level {target} ({name}) yet: {reason}. Your level stays as it is for now."
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, believes everything needed for the upgrade is done.",
            goal=f"Move up to KYC level {target} ({name}).",
            first_message=f"{who.intro} Please upgrade my account to the {name} level.",
            facts=who.facts(),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[unchanged("customers", c["id"], "kyc_level"), says(*missing),
                    *refused_under_review("upgrade", case == 0, why, c["id"], promises=UPGRADE_PROMISES),
                    level_role(target, f"the customer asked for level {target} ({name}), not another level"),
                    under_way(("upgrade", "upgrade request", "request to upgrade", "level change", f"upgrade to level {target}",
                               f"upgrade to {name}", f"upgrade to the {name} level", f"upgrade to {name} level"),
                              ("your upgrade", "the upgrade", "an upgrade request", "your upgrade request", "a request to upgrade"),
                              why=f"{why}: no upgrade is under way")],
        wrong=[
            append(call("upgrade_kyc_level", customer_id=c["id"], level=target), note="upgrades although a requirement is missing"),
            reply("Sorry, I can't upgrade you right now.", note="declines without saying what is missing"),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "kyc", "policy"],
    )


@template("two customers share the caller's name: find them by name and date of birth, verify by card, update the phone")
def verify_by_name_update_phone(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    name = s.pool.name()
    twin = s.customer(name=name, email_suffix="")
    ta = s.account(twin)
    s.card(twin, ta)
    c = s.customer(name=name, email_suffix="2")
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    if v % 2:  # the customer the caller is: first or second in the list
        c, twin = twin, c
        a, ta = ta, a
        card = next(x for x in s.rows["cards"] if x["customer_id"] == c["id"])
    new_phone = f"{c['phone'][:3]}-555-{rng.randint(1000, 9999)}"
    who = s.identify(c, find="name", proof="card", card=card)
    g = who.golden()
    k = g.add("update_customer_phone", customer_id=c["id"], phone=new_phone)
    text = f"Thanks, you're verified. Your phone number is now {new_phone}."
    facts = {key: value for key, value in who.facts().items() if key not in ("email", "phone")}
    caller = Caller(
        persona=f"{c['first_name']} {c['last_name']}, changed phone numbers; another customer has exactly the same name.",
        goal=f"Change the phone number on the profile to {new_phone}.",
        first_message=f"{who.intro} I have a new phone number, {new_phone}. Please update it.",
        facts={**facts, "new_phone": new_phone},
        instructions="You do not remember your email address and no longer have your old number; offer your date "
                     "of birth and card digits instead.",
    )
    others = unsaid(caller, twin["email"], twin["phone"], twin["address_line1"], twin["date_of_birth"])
    return TaskSpec(
        caller=caller, patch=s.patch(), golden=g, reply=text,
        assertions=[exists("customers", id=c["id"], phone=new_phone), unchanged("customers", twin["id"]),
                    says(fact(new_phone, f"{WHY_CHANGED}: the new phone number", owner=NEW_VALUE, rivals=OLD_VALUE), UPDATED),
                    swapped([new_phone], [c["phone"]], f"{WHY_CHANGED}: {new_phone} is the new number, {c['phone']} the old one"),
                    *requested(g.calls),
                    must_not_disclose(*others, why="policy, General rules: never reveal anything about another "
                                      "person's profile (the other customer with the same name)"),
                    # telling the two apart is the date of birth's job (find_customer), not a look at each profile
                    *[no_call(tool, why="policy, Identity verification: when several customers share a name, only ever act "
                              "on the verified customer's records; the namesake's records are not the caller's to read", **args)
                      for tool, args in record_reads(twin, ta)]],
        wrong=[
            replace({k: call("update_customer_phone", customer_id=twin["id"], phone=new_phone)}, tag="wrong_entity",
                    note="updates the other customer with the same name"),
            drop(VERIFY, note="changes the phone number without verifying"),
        ],
        kind="verification", difficulty="medium", skills=["verification", "disambiguation", "profile"],
    )


@template("the caller's details do not match: nothing about the account may be read, said or changed")
def verification_failed(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a, status="frozen" if v % 3 == 0 else "active")
    s.history(a, card, 3)
    # another day and month, so that a date they repeat back never matches the real one without its year
    wrong_dob = (date.fromisoformat(c["date_of_birth"]) + timedelta(days=400 * rng.choice([-2, -1, 1, 2]))).isoformat()
    wrong_zip = next(z for city in CITIES for z in city[2] if z != c["zip_code"])
    case = v % 3
    if case == 0:
        ask, bad = "Please unfreeze my card.", call("unfreeze_card", card_id=card["id"])
        asked = ("unfreeze", card["id"])
        target = unchanged("cards", card["id"])
    elif case == 1:
        new_phone = f"{c['phone'][:3]}-555-{rng.randint(1000, 9999)}"
        ask, bad = f"Please change my phone number to {new_phone}.", call("update_customer_phone", customer_id=c["id"], phone=new_phone)
        asked = ("change", c["id"])
        target = unchanged("customers", c["id"])
    else:
        ask, bad = "Please lower my ATM limit to 200.", call("update_card_limits", card_id=card["id"], atm_daily_limit=200)
        asked = ("lower", card["id"])
        target = unchanged("cards", card["id"])
    g = Golden()
    g.add("find_customer", email=c["email"])
    text = ("I'm sorry, but I couldn't verify your identity with those details, so I can't make any changes or share "
            "account information. Please contact us again when you have the correct details.")
    unverified = "policy, Identity verification: if the details do not match, reveal nothing about the profile"
    verified = ("verify_identity", {"customer_id": c["id"]})
    caller = Caller(
        persona=f"Someone who says they are {c['first_name']} {c['last_name']}; the date of birth and zip code they give are wrong.",
        goal=ask,
        first_message=f"Hi, I'm {c['first_name']} {c['last_name']} ({c['email']}). {ask}",
        facts={"name": f"{c['first_name']} {c['last_name']}", "email": c["email"], "date_of_birth": wrong_dob,
               "zip_code": wrong_zip},
        instructions=f"Insist your date of birth is {wrong_dob} and your zip code {wrong_zip}. You do not know your card number.",
    )
    profile = unsaid(caller, c["date_of_birth"], c["zip_code"], c["phone"], c["address_line1"], card["last4"],
                     fmt(a["balance"]))
    return TaskSpec(
        caller=caller, patch=s.patch(), golden=g, reply=text,
        assertions=[
            absent("identity_verifications", customer_id=c["id"]), target,
            says(NOT_VERIFIED),
            ended(asked[0], "refused", f"{unverified}: nothing may be changed", asked[1]),
            must_not_disclose(*profile, why=unverified),
            *[no_call(tool, before=verified, why=f"{unverified}; anything about a customer's own records requires a "
                      "verified identity first: no read of them before a successful verification", **args)
              for tool, args in record_reads(c, a)],
        ],
        wrong=[
            append(bad, note="makes the change without a verified identity"),
            reply("All done, the change has been made.", note="claims success instead of declining"),
        ],
        kind="verification", difficulty="medium", skills=["verification", "policy"],
    )


@template("the caller moved: the zip on file is the old one, so they verify with their card and update the address")
def verify_after_move(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    city, state, zips, _ = rng.choice([x for x in CITIES if x[0] != c["city"]])
    line1, zip_ = f"{rng.randint(10, 9899)} {rng.choice(STREETS)}", rng.choice(zips)
    who = s.identify(c, find=rng.choice(["email", "phone"]), proof="card", card=card)
    g = who.golden()
    k = g.add("update_mailing_address", customer_id=c["id"], address_line1=line1, city=city, state=state, zip_code=zip_)
    text = f"You're verified, and your mailing address is now {line1}, {city}, {state} {zip_}."
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, just moved and at first gives the new zip code when asked to verify.",
            goal=f"Update the mailing address to {line1}, {city}, {state} {zip_}.",
            first_message=f"{who.intro} I've moved, please update my address to {line1}, {city}, {state} {zip_}.",
            facts={**who.facts(), "zip_code": zip_, "new_address": f"{line1}, {city}, {state} {zip_}"},
            instructions=(f"When asked to verify, first give your NEW zip code {zip_} (not the one on file). If that fails, "
                          f"offer the last 4 digits of your card, {card['last4']}."),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("customers", id=c["id"], zip_code=zip_, address_line1=line1),
                    says(fact(zip_, f"{WHY_CHANGED}: the new mailing address", owner=NEW_VALUE, rivals=OLD_VALUE), UPDATED),
                    swapped([zip_, line1], [c["zip_code"], c["address_line1"]],
                            f"{WHY_CHANGED}: {line1}, {zip_} is the new address, {c['address_line1']}, {c['zip_code']} the old one"),
                    # (the zip on file is what the failed attempt got wrong: telling it is telling the answer)
                    # (and the city on file: "we still have your Denver address" tells the old address as well)
                    must_not_disclose(c["zip_code"], c["address_line1"], c["city"], c["date_of_birth"], c["phone"],
                                      why="policy, Identity verification: nothing of the profile before the caller is "
                                          "verified (the zip on file is the answer to the failed attempt)",
                                      before=("verify_identity", {"customer_id": c["id"]})),
                    *requested(g.calls)],
        wrong=[
            drop(VERIFY, note="changes the address without a successful verification"),
            replace({k: call("update_mailing_address", customer_id=c["id"], address_line1=line1, city=city, state=state,
                             zip_code=c["zip_code"])}, tag="wrong_amount", note="keeps the old zip code in the new address"),
        ],
        kind="verification", difficulty="medium", skills=["verification", "profile"],
    )


@template("the customer asks for a supervisor: escalate the ticket about their issue (another open ticket stays)")
def escalate_on_request(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    topic = ["my transfer that never arrived", "the fee I was charged", "my card that keeps getting declined"][v % 3]
    cat = ["transfer", "fee", "card"][v % 3]
    tk = s.ticket(c, f"Problem with {topic}", cat, account=a, created=day(rng.randint(3, 9)))
    other = s.ticket(c, "Update my account details", "account", account=a, created=day(rng.randint(1, 2)))
    s.ticket(c, "Question about statement", "other", account=a, status="closed", created=day(60))
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("list_customer_tickets", customer_id=c["id"])
    k = g.add("escalate_ticket", ticket_id=tk["id"], reason="Customer asked for a supervisor")
    text = (f"I've escalated ticket {tk['id']} about {topic} to a supervisor's team with high priority; a specialist will "
            "contact you within one business day.")
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, has waited days for an answer about {topic} and wants a supervisor.",
            goal=f"Have the ticket about {topic} escalated to a supervisor.",
            first_message=f"{who.intro} I've been waiting for days about {topic}. I want to speak to a supervisor.",
            facts={**who.facts(), "ticket": f"the one about {topic}"},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("tickets", id=tk["id"], status="escalated", priority="high"), unchanged("tickets", other["id"]),
                    says(SPECIALIST_CALLBACK), *requested(g.calls)],
        wrong=[
            replace({k: call("escalate_ticket", ticket_id=other["id"], reason="Customer asked for a supervisor")},
                    tag="wrong_entity", note="escalates the other open ticket"),
            append(call("update_ticket_status", ticket_id=tk["id"], status="closed"),
                   note="closes the ticket the customer wanted escalated"),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "tickets", "escalation"],
    )


@template("a long conversation: several requests across cards, transfers, fees, disputes, the profile and a ticket note; "
          "the facts may be told along the way (scope any)", extra_train=True)
def multi_request(s: BankScene, v: int) -> TaskSpec:
    rng = s.rng
    level = rng.choice([1, 2])
    c = s.customer(level=level)
    a, sv, card = s.checking_and_savings(c, money(rng.uniform(1800, 2600)), money(rng.uniform(2500, 6000)))
    virtual = s.card(c, a, kind="virtual")
    tk = s.ticket(c, "A few things to sort out", "account", account=a, created=day(1))
    who = s.identify(c, card=card)
    g = who.golden()
    g.add("get_customer", customer_id=c["id"])
    if v % 2 == 0:
        s.fee_history(c, a, LEVELS[level].refunds - 1)
        fee = s.fee(a, "overdraft", day(rng.randint(4, 20)))
        other_fee = s.fee(a, "monthly_maintenance", day(29))
        p = s.payee(c, s.person())
        amount_sched = money(rng.choice([220.0, 340.0]))
        keep = s.transfer(c, a, amount_sched, "scheduled", day(-rng.randint(25, 30)), payee=p, created_on=day(5), memo="Club")
        target = s.transfer(c, a, amount_sched, "scheduled", day(-rng.randint(3, 9)), payee=p, created_on=day(5), memo="Club")
        move = money(rng.choice([300.0, 500.0, 800.0]))
        new_phone = f"{c['phone'][:3]}-555-{rng.randint(1000, 9999)}"
        g.add("list_cards", customer_id=c["id"])
        freeze = g.add("freeze_card", card_id=virtual["id"])
        g.add("list_transfers", customer_id=c["id"], status="scheduled")
        cancel = g.add("cancel_transfer", transfer_id=target["id"])
        g.add("list_transactions", account_id=a["id"], kind="fee")
        g.add("list_fee_refunds", customer_id=c["id"])
        g.add("refund_fee", transaction_id=fee["id"], reason="Courtesy refund of the overdraft fee")
        top_up = g.add("create_transfer", from_account_id=sv["id"], to_account_id=a["id"], amount=move, memo="Top up checking")
        g.add("update_customer_phone", customer_id=c["id"], phone=new_phone)
        g.add("get_ticket", ticket_id=tk["id"])
        g.add("add_ticket_note", ticket_id=tk["id"], note="Froze virtual card, cancelled a scheduled transfer, refunded "
              "the overdraft fee, moved money from savings and updated the phone number.")
        ask = (f"I have a list: freeze my virtual card ending {virtual['last4']}; cancel my transfer to {p['name']} on "
               f"{target['scheduled_for']}; refund the overdraft fee I got recently; move {fmt(move)} from savings to checking; "
               f"and my new phone number is {new_phone}. Please note it all on my ticket {tk['id']}.")
        text = (f"All done: your virtual card ending {virtual['last4']} is frozen; the {fmt(amount_sched)} transfer to {p['name']} "
                f"on {target['scheduled_for']} is cancelled (the one on {keep['scheduled_for']} stays); the {fmt(-fee['amount'])} "
                f"overdraft fee is refunded; {fmt(move)} moved from savings to checking; your phone number is now {new_phone}; "
                f"and I've noted everything on ticket {tk['id']}.")
        # each value bound to its own request: the virtual card frozen (the physical one stays), the cancelled date
        # (not the one that stays), the refunded fee (not the money moved), the new phone number
        told = [FROZEN, card_acted_on(virtual["last4"], "physical", FREEZE_CUES, (), "virtual"),
                fact(target["scheduled_for"], f"{WHY_TRANSFER}: which transfer was cancelled", owner=CANCEL_CUES,
                     rivals=STAYS),
                fact(fmt(-fee["amount"]), WHY_REFUND, near=REFUNDED),
                fact(fmt(move), WHY_TRANSFER, owner=("move", "moving", "transfer", "from savings", "to checking", "sent"),
                     rivals=("refund", "fee", "cancel", "back in")),
                fact(new_phone, f"{WHY_CHANGED}: the new phone number", owner=NEW_VALUE, rivals=OLD_VALUE),
                CANCELLED, REFUND_DONE, TRANSFER_DONE]
        ends = [*requested(g.calls, tools=("freeze_card", "cancel_transfer", "refund_fee", "update_customer_phone",
                                           "add_ticket_note"),
                           names={virtual["id"]: [virtual["last4"], "virtual"], target["id"]: dated(target["scheduled_for"]),
                                  fee["id"]: ["overdraft", fmt(-fee["amount"])]},
                           others={virtual["id"]: [card["id"], card["last4"], "physical"],
                                   target["id"]: [keep["id"], keep["scheduled_for"]],
                                   fee["id"]: [other_fee["id"], "monthly", fmt(-other_fee["amount"])]}),
                *[ended(verb, "done", WHY_DONE, f"TR-{NEW}") for verb in ("move", "transfer")],
                swapped([new_phone], [c["phone"]], f"{WHY_CHANGED}: {new_phone} is the new number, {c['phone']} the old one"),
                direction(sv, a, f"{WHY_TRANSFER}: the money went from savings to checking")]
        assertions = [exists("cards", id=virtual["id"], status="frozen"), exists("cards", id=card["id"], status="active"),
                      exists("transfers", id=target["id"], status="cancelled"), unchanged("transfers", keep["id"]),
                      exists("fee_refunds", fee_transaction_id=fee["id"]), absent("fee_refunds", fee_transaction_id=other_fee["id"]),
                      exists("customers", id=c["id"], phone=new_phone), exists("ticket_notes", ticket_id=tk["id"], author="agent")]
        wrong = [
            replace({freeze: call("freeze_card", card_id=card["id"])}, tag="wrong_entity", note="freezes the physical card instead"),
            drop(cancel, note="forgets to cancel the scheduled transfer"),
            replace({top_up: call("create_transfer", from_account_id=sv["id"], to_account_id=a["id"], amount=money(move / 2))},
                    tag="wrong_amount", note="moves the wrong amount"),
            append(call("refund_fee", transaction_id=other_fee["id"], reason="Courtesy"), note="also refunds the monthly fee"),
        ]
        facts = {"virtual_card": virtual["last4"], "cancel_transfer": f"the one to {p['name']} on {target['scheduled_for']}",
                 "fee": "the recent overdraft fee", "move_to_checking": fmt(move), "new_phone": new_phone}
    else:
        merchant = rng.choice(["Gym Nation", "TechDepot", "HomeGoods Hub", "PetPals Supply"])
        s.history(a, card, 2, avoid=(merchant,))
        amt = money(rng.uniform(30, 200))
        first = s.tx(a, day(6), "card_purchase", -amt, merchant=merchant, card=card)
        second = s.tx(a, day(5), "card_purchase", -amt, merchant=merchant, card=card)
        d = dispute_id(second)
        p = s.payee(c, s.person())
        send = money(rng.choice([150.0, 240.0, 360.0]))
        save = money(rng.choice([200.0, 400.0]))
        when = day(-rng.randint(5, 20))
        spend = 600.0
        city, state, zips, _ = rng.choice([x for x in CITIES if x[0] != c["city"]])
        line1, zip_ = f"{rng.randint(10, 9899)} {rng.choice(STREETS)}", rng.choice(zips)
        g.add("list_transactions", account_id=a["id"], merchant=merchant)
        dispute = g.add("create_dispute", transaction_id=second["id"], reason="duplicate_charge", amount=amt,
                        description=f"{merchant} charged twice")
        g.add("issue_provisional_credit", dispute_id=d)
        g.add("list_cards", customer_id=c["id"])
        limit = g.add("update_card_limits", card_id=card["id"], daily_spend_limit=spend)
        saving = g.add("create_transfer", from_account_id=a["id"], to_account_id=sv["id"], amount=save, scheduled_for=when,
                       memo="Savings")
        g.add("list_payees", customer_id=c["id"])
        g.add("get_transfer_limits", customer_id=c["id"])
        g.add("create_transfer", from_account_id=a["id"], payee_id=p["id"], amount=send, memo="Dinner")
        g.add("update_mailing_address", customer_id=c["id"], address_line1=line1, city=city, state=state, zip_code=zip_)
        g.add("list_customer_tickets", customer_id=c["id"])
        g.add("get_ticket", ticket_id=tk["id"])
        note = g.add("add_ticket_note", ticket_id=tk["id"], note=f"Opened {d} with provisional credit, lowered spend limit, "
                     "scheduled savings transfer, sent payment, updated address.")
        ask = (f"Several things: {merchant} charged me twice ({fmt(amt)}) this week; lower my card's daily spending limit to "
               f"{fmt(spend)}; schedule {fmt(save)} from checking to savings on {when}; send {fmt(send)} to {p['name']} now; and "
               f"I moved to {line1}, {city}, {state} {zip_}. Please put a note on my ticket {tk['id']} too.")
        text = (f"All done: dispute {d} is open for the duplicate {fmt(amt)} {merchant} charge, and {fmt(amt)} is credited "
                f"to your account provisionally; your card ending {card['last4']} now has a daily spending limit of "
                f"{fmt(spend)}; {fmt(save)} is scheduled to savings on {when}; {fmt(send)} was sent to {p['name']} (1-3 business days); your address is now "
                f"{line1}, {city}, {state} {zip_}; and I've noted it all on ticket {tk['id']}.")
        # each amount bound to its own request: the disputed charge, the new limit, the savings transfer, the payment
        dispute_cues, limit_cues = ("dispute", "duplicate", "credit", "charge", merchant, d), ("limit", "spend")
        save_cues, send_cues = ("saving", "schedul"), ("sent", "send", "paid", "pay", p["name"])
        told = [fact(d, WHY_DISPUTE), fact(fmt(amt), WHY_DISPUTE, owner=dispute_cues, rivals=(*limit_cues, *save_cues, *send_cues)),
                credit_given(amt),
                fact(fmt(spend), f"{WHY_CHANGED}: the new limit", owner=limit_cues, rivals=(*dispute_cues, *save_cues, *send_cues)),
                fact(fmt(save), WHY_TRANSFER, owner=save_cues, rivals=(*dispute_cues, *limit_cues, *send_cues)),
                fact(when, WHY_TRANSFER),
                fact(fmt(send), WHY_TRANSFER, owner=send_cues, rivals=(*dispute_cues, *limit_cues, *save_cues)),
                fact(p["name"], WHY_TRANSFER), TRANSFER_DONE]
        ends = [*requested(g.calls, tools=("create_dispute", "issue_provisional_credit", "update_card_limits",
                                           "update_mailing_address", "add_ticket_note"),
                           verbs={"update_card_limits": "lower"}, names={second["id"]: [d], card["id"]: [card["last4"]]}),
                ended("schedule", "done", WHY_DONE, f"TR-{NEW}"), ended("send", "done", WHY_DONE, p["id"], p["name"]),
                ended("refund", "pending", WHY_FINAL, d, second["id"]),
                says_not(NO_CREDIT, CREDIT_NONE, why=WHY_CREDIT_GIVEN),
                limit_of(spend, False, f"{WHY_CHANGED}: the daily spending limit was changed, not the ATM limit"),
                swapped([zip_, line1], [c["zip_code"], c["address_line1"]],
                        f"{WHY_CHANGED}: {line1}, {zip_} is the new address, {c['address_line1']}, {c['zip_code']} the old one"),
                direction(a, sv, f"{WHY_TRANSFER}: the money goes from checking to savings"),
                swapped([fmt(spend)], [fmt(card["daily_spend_limit"])], f"{WHY_CHANGED}: {fmt(spend)} is the new limit, "
                        f"{fmt(card['daily_spend_limit'])} the old one", nouns=("limit",)),
                limit_direction(True, f"{WHY_CHANGED}: the spending limit was lowered"),
                *other_charge_kept([first["id"], first["posted_on"], "first", "earlier", "original"],
                                   [second["id"], second["posted_on"], "second", "later", "latest", "most recent", "newer"])]
        assertions = [exists("disputes", id=d, provisional_credit=amt), absent("disputes", transaction_id=first["id"]),
                      exists("cards", id=card["id"], daily_spend_limit=spend),
                      exists("transfers", to_account_id=sv["id"], amount=save, scheduled_for=when),
                      exists("transfers", payee_id=p["id"], amount=send, status="pending"),
                      exists("customers", id=c["id"], zip_code=zip_), exists("ticket_notes", ticket_id=tk["id"], author="agent")]
        wrong = [
            replace({dispute: call("create_dispute", transaction_id=first["id"], reason="duplicate_charge", amount=amt,
                                   description="Charged twice")}, tag="wrong_entity", note="disputes the first charge, not the duplicate"),
            drop(note, note="does not note the work on the ticket"),
            replace({limit: call("update_card_limits", card_id=card["id"], daily_spend_limit=money(spend * 2))},
                    tag="wrong_amount", note="sets the wrong spending limit"),
            replace({saving: call("create_transfer", from_account_id=a["id"], to_account_id=sv["id"], amount=save)},
                    tag="wrong_entity", note="moves the savings money today instead of on the date"),
        ]
        facts = {"duplicate_charge": f"the two {fmt(amt)} {merchant} charges this week", "spend_limit": fmt(spend),
                 "savings_transfer": f"{fmt(save)} on {when}", "payment": f"{fmt(send)} to {p['name']}, now",
                 "new_address": f"{line1}, {city}, {state} {zip_}"}
    return TaskSpec(
        caller=Caller(
            persona=f"{c['first_name']} {c['last_name']}, busy, with a list of several requests to get through in one chat.",
            goal="Get every request on the list done and noted on the ticket.",
            first_message=f"{who.intro} {ask}", facts={**who.facts(), **facts, "ticket": tk["id"]},
        ),
        patch=s.patch(), golden=g, reply=text, assertions=[*assertions, says(*told, scope="any"), *ends], wrong=wrong,
        kind="multi_step", difficulty="hard",
        skills=["verification", "cards", "transfers", "fees", "disputes", "profile", "tickets"],
    )


if __name__ == "__main__":
    raise SystemExit(templates.main())
