"""An id said as another kind of record: the tools' keys say what each id is."""

from __future__ import annotations

from tb_env.domain.ids import kinds_of, mislabeled_id

RESULTS = ['{"claim_id": "CLM-9001", "policy_id": "POL-1", "status": "reported"}',
           '{"ticket_id": "T-9001", "claim_id": "CLM-9001", "payment_method_id": "PM-1", "status": "open"}']


def test_each_id_has_the_kinds_of_the_keys_it_comes_under():
    kinds = kinds_of(RESULTS)
    assert kinds["CLM-9001"] == {"claim"} and kinds["T-9001"] == {"ticket"} and kinds["PM-1"] == {"method"}


def test_audit20_two_real_ids_swapped_between_roles_are_caught():
    """Audit 20: "I've filed claim T-9001 ... and opened ticket CLM-9001" scored 1 (both ids are real)."""
    assert mislabeled_id(["I've filed claim T-9001 and opened ticket CLM-9001."], RESULTS) == "claim T-9001"
    assert mislabeled_id(["Your ticket number CLM-9001 is open."], RESULTS) == "ticket number CLM-9001"
    assert mislabeled_id(["Your claim number is T-9001."], RESULTS) == "claim number is T-9001"
    assert mislabeled_id(["Claim reference: T-9001."], RESULTS) == "Claim reference: T-9001"
    for text in ("I've filed claim CLM-9001 and opened ticket T-9001 about it.", "Ticket T-9001 (claim CLM-9001) is open.",
                 "Your claim's ticket T-9001 is open.", "Policy POL-1 covers claim CLM-9001.",
                 "Request T-9001 is open.",  # a word for any record
                 "Payment PM-1 is on file."):  # no id of the episode is a payment: nothing to swap with
        assert mislabeled_id([text], RESULTS) is None, text


def test_audit21_a_card_named_by_another_brand_is_caught():
    """Audit 21: "the full $980.00 refund goes to your Visa ending 9577" scored 1 where 9577 is a Mastercard."""
    from tb_env.domain.ids import misbranded_card

    results = ['{"refund": 735.0, "card": "Mastercard Corporate ending 9577"}',
               '{"autopay_payment_method": "Checking ending 5440"}']
    assert misbranded_card(["The refund goes to your Visa ending 9577."], results) == "Visa ending 9577"
    assert misbranded_card(["It is charged to your savings account ending in 5440."], results)
    for text in ("The refund goes to your Mastercard ending in 9577.", "Refunded to Mastercard Corporate ending 9577.",
                 "It is charged to the Checking account ending 5440.", "Your card ending 9577 gets the refund.",
                 "Your Visa ending 1234 is not used."):  # digits the tools never gave: another check's
        assert misbranded_card([text], results) is None, text
