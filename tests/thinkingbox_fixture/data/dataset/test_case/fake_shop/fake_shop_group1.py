# A test file in the ThinkingBox-Bench release format, for tb-env's importer tests.
# tb-env reads it with `ast`; it must never be imported or run:
raise RuntimeError("tb-env must not execute ThinkingBox test files")

"""!
scenario: fake_shop
"""
SERVER_NAME = "fake_shop"


def validate_database(x):
    assert x.effects[SERVER_NAME]["result_db_hash"] == x.effects[SERVER_NAME]["golden_db_hash"]


def test_cancel_001(x, judge):
    """!
    query: |
        Hi, please cancel my order A-1.
    user_context: |
        You are Ana. Your order is A-1. You changed your mind.
    init:
      fake_shop:
        data_patch:
          orders:
            - id: A-1
              status: open
              total: 30
              created: 2025-10-01
        golden_test_case:
          tool_interactions:
            - tool: get_order
              parameters:
                order_id: A-1
            - tool: cancel_order
              parameters:
                order_id: A-1
                reason: changed mind
    """
    validate_database(x)


def test_lookup_002(x, judge):
    """!
    query: |
        What is the status of order B-1?
    user_context: |
        You are Bo.
    init:
      fake_shop:
        data_patch:
          orders:
            - id: B-1
              status: open
              total: 12
        golden_test_case:
          tool_interactions:
            - tool: get_order
              parameters:
                order_id: B-1
    """
    validate_database(x)


def test_cancel_rubric_003(x, judge):
    """!
    query: |
        Cancel C-1 please.
    user_context: |
        You are Cy.
    init:
      fake_shop:
        data_patch:
          orders:
            - id: C-1
              status: open
              total: 7
        golden_test_case:
          tool_interactions:
            - tool: cancel_order
              parameters:
                order_id: C-1
                reason: customer request
        rubrics_yesno:
          - Does the agent confirm to the customer that order C-1 was cancelled?
    """
    validate_database(x)
    for rubric in x.effects[SERVER_NAME].get("rubrics_yesno", []):
        assert judge.text_yesno(x.response, rubric)
