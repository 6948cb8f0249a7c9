"""When the SLURM tests run, skip, or fail (tests/slurm_support.py)."""

from __future__ import annotations

from .. import slurm_support


def test_no_slurm_installed_is_a_clear_reason(monkeypatch):
    monkeypatch.setattr(slurm_support.shutil, "which", lambda name: None)
    reason = slurm_support.unavailable()
    assert reason is not None and "not installed" in reason and "sbatch" in reason


def test_a_real_cluster_is_never_used(monkeypatch):
    monkeypatch.setattr(slurm_support.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(slurm_support.importlib.util, "find_spec", lambda name: object())
    monkeypatch.setattr(slurm_support, "_cluster_name", lambda: "hpc-prod")
    reason = slurm_support.unavailable()
    assert reason is not None and "'hpc-prod'" in reason


def test_our_test_cluster_is_used(monkeypatch):
    monkeypatch.setattr(slurm_support.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(slurm_support.importlib.util, "find_spec", lambda name: object())
    monkeypatch.setattr(slurm_support, "_cluster_name", lambda: "local")
    assert slurm_support.unavailable() is None
