"""``septima-sim sensitivity``: which assumed numbers drive each finding, and which findings survive them.

Every value of the study (``--params``: every assumed value of the pack by default, ``params``) gets a range
(``content.assumed``); SALib's Morris screening or Sobol indices design samples of those values (``design``); each
sample is a content variant played on the config's seeds by the project's runner (``run``); each metric of each
sample (``metrics``) is analysed by SALib (``analyze``) and written as ``sensitivity.csv``, ``samples.parquet`` and
``sensitivity.html`` (``outputs``, ``page``); ``findings`` says what a study means for a report's headlines
(docs/sensitivity.md). The submodules are imported where used: SALib (and pandas with it) loads only for a study.
"""
