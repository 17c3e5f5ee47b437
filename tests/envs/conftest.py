"""The research adapters need the optional extra; without it these tests skip and say why."""

import pytest

pytest.importorskip("pettingzoo", reason="the research extra is not installed: pip install -e '.[research]'")
pytest.importorskip("gymnasium", reason="the research extra is not installed: pip install -e '.[research]'")
