"""Scaling out: the queries of a batch or an evaluation as Ray tasks, with politeness and model limits shared by
every worker through one actor. Ray is an optional extra (``pip install 'research-crawler[ray]'``)."""
