"""patients.toml: the diseases with their healing tracks, and the patient tiles (disease and flag colours)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from septima_sim.content.schema.common import Count, Effect, Fault, Id, Provenance, Schema, Sourced, ref


class Disease(Sourced):
    """A healing track: rewards[i] when it advances to step i+1; end_values[i] scored at step i."""

    name: str
    rewards: list[Effect] = Field(default_factory=list)
    end_values: list[Count]
    provenance: Provenance

    @model_validator(mode="after")
    def _steps(self) -> Disease:
        if len(self.end_values) != len(self.rewards) + 1:
            raise Fault("end_values", "needs one non-negative value per track step (rewards + 1)")
        return self


class PatientTiles(Sourced):
    """The tiles of one disease: one tile per flag colour listed (flags match map patient spaces "<flag>-<n>")."""

    flags: list[Annotated[str, Field(pattern=r"^[a-z]+$")]]
    provenance: Provenance


class PatientsFile(Schema):
    """patients.toml: diseases keyed by id, patient tiles keyed by their disease."""

    diseases: Annotated[dict[Id, Disease], Field(min_length=1)]
    patient_tiles: Annotated[dict[Annotated[str, ref("disease")], PatientTiles], Field(min_length=1)]
