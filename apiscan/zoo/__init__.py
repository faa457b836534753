"""``apiscan zoo``: many repositories scanned as one zoo, into one DuckDB database.

The stages, each in its own module, in the order a run takes them:

manifest (which repositories, their names, weights and tags) → checkout (a git clone cache, or
the local path, and the revision that decides whether a repository needs scanning again) →
task (one repository scanned exactly as ``apiscan PATH`` would, in a child process with memory
and time limits, returned as plain rows) → engines (the tasks on this machine's process pool
or on Ray, a crash or time-out retried once) → database (the rows into DuckDB, one transaction
per repository, so an interrupted run loses only the tasks in flight) → report (the zoo's gap
ranking, unblock curve and the rest, from the database alone).
"""
