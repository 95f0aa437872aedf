"""One signature type: the word scores' and each measure's extension serialise as they always did
(stored signatures compare byte for byte), and read back as they were."""

import hashlib
import json

import pytest

from scoring import (
    BalancedSignature,
    BucketedGold,
    BucketSignature,
    Dictionary,
    Signature,
    TrainingText,
    analyse_run,
    balanced_score,
    build_gold_index,
    prepare_track,
    score_run_details,
)
from scoring.core.score import ScoredRun
from scoring.fine.buckets import RunBuckets
from tests.scoring.test_attributes import GOLD, RUN, TRAINING, WORDS

# Written by the library before signatures had one type (commit 2432a2d), for these inputs.
WORD_SIGNATURE = (
    '{"scorer_version": "1.0.0", '
    '"gold_checksum": "sha256:cf54b0767e177b390f9d7b2c6bb9f7776ce1fa8725cbd04bdea7a3494b823dec", '
    '"dictionary_checksum": '
    '"sha256:420ddb3fa2dba1f0aae8181ae39e8e4239ccdf624431805dc89b08117ddb6b56", '
    '"options": {"match": "span", "mismatch": "lcs"}}'
)
BUCKET_SIGNATURE = (
    '{"scorer_version": "1.0.0", '
    '"gold_checksum": "sha256:cf54b0767e177b390f9d7b2c6bb9f7776ce1fa8725cbd04bdea7a3494b823dec", '
    '"dictionary_checksum": '
    '"sha256:420ddb3fa2dba1f0aae8181ae39e8e4239ccdf624431805dc89b08117ddb6b56", '
    '"training_checksum": '
    '"sha256:aac762c575c571442345ab30510dde91204c20c5c8c87e817d14bead8c1f8463", '
    '"scheme": "rethinkcws-default/1", '
    '"scheme_checksum": '
    '"sha256:727cc847c34fedf338a0f9bf4a6fbea8853e32b849f2a9ec97cfbd7c4d1de85d", '
    '"samples": 20, "seed": 3}'
)
WORD_SIGNATURE_LINE = (
    "scorer:1.0.0|gold:sha256.cf54b0767e17|dict:sha256.420ddb3fa2db|match:span|mismatch:lcs"
)
# sha256 of json.dumps(analyse_run(...).to_dict()) by that same library
BUCKETS_SHA256 = "87b9ea7cff470bd9a80a9e24f192da8526b04c4d59a3bee98eaad53075a53087"


@pytest.fixture(scope="module")
def scored() -> tuple[ScoredRun, RunBuckets]:
    gold = build_gold_index(GOLD, Dictionary.from_word_list(WORDS))
    track = BucketedGold.prepare(prepare_track(gold, TrainingText.from_segmented(TRAINING)))
    run = score_run_details(RUN, gold)
    return run, analyse_run(track, run, samples=20, seed=3)


def test_the_word_scores_signature_is_written_as_before(
    scored: tuple[ScoredRun, RunBuckets],
) -> None:
    run, _ = scored
    assert json.dumps(run.score.signature.to_dict()) == WORD_SIGNATURE
    assert str(run.score.signature) == WORD_SIGNATURE_LINE


def test_the_bucket_signature_extends_it_and_is_written_as_before(
    scored: tuple[ScoredRun, RunBuckets],
) -> None:
    _, analysis = scored
    assert isinstance(analysis.signature, Signature)
    assert json.dumps(analysis.signature.to_dict()) == BUCKET_SIGNATURE
    digest = hashlib.sha256(json.dumps(analysis.to_dict()).encode()).hexdigest()
    assert digest == BUCKETS_SHA256


@pytest.mark.parametrize("text", [WORD_SIGNATURE, BUCKET_SIGNATURE])
def test_a_stored_signature_reads_back_and_writes_the_same_bytes(text: str) -> None:
    kind: type[Signature] = BucketSignature if "scheme" in text else Signature
    assert json.dumps(kind.from_dict(json.loads(text)).to_dict()) == text


def test_a_measure_lists_options_only_when_it_has_some() -> None:
    bare = BucketSignature("1", "g", "d", None, "s", "sha256:x", 10, 0)
    assert "options" not in bare.to_dict()
    with_options = BucketSignature(
        "1", "g", "d", None, "s", "sha256:x", 10, 0, options=(("a", "b"),)
    )
    assert with_options.to_dict()["options"] == {"a": "b"}
    assert Signature("1", "g", "d").to_dict()["options"] == {}


def test_the_balanced_score_is_signed_by_the_run_and_the_committee(
    scored: tuple[ScoredRun, RunBuckets],
) -> None:
    run, _ = scored
    result = balanced_score(run, [0.5] * run.gold.true_words, committee="committee:runs|k:2")
    signature = result.signature
    assert isinstance(signature, BalancedSignature)
    assert signature.committee == "committee:runs|k:2"
    assert str(signature) == WORD_SIGNATURE_LINE.replace(
        "|match", "|committee:committee:runs|k:2|match"
    )
    assert result.to_dict()["committee"] == "committee:runs|k:2"
    assert "signature" not in result.to_dict()  # the stored balanced figures keep their keys
