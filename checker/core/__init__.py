"""The rule machinery: what a rule is (:mod:`.rule`), which rules exist (:mod:`.registry`),
the read-only walk of a tree (:mod:`.walk`), checking and fixing one file
(:mod:`.engine`) and re-checking only what an edit changed (:mod:`.incremental`). Rule
authors import none of this directly: :mod:`ivycheck.checker.rule_api` is their surface."""
