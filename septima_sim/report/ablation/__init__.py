"""The ablation table (``ablation.csv`` and its columns) and the ablation page: read by ``report`` and written by
``ablate`` (which imports them; the report never imports ``ablate``)."""
