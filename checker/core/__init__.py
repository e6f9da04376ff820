"""The rule machinery: what a rule is (:mod:`.rule`), which rules exist (:mod:`.registry`),
checking and fixing one file (:mod:`.engine`), and rendering a fix with libcst over only
the statement it changes (:mod:`.fix_render`). Rule authors import none of this directly
but :mod:`.fix_render` inside a fix: :mod:`ivycheck.checker.rule_api` is their surface."""
