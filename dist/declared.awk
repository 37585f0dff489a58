# The functions a header declares, one a line: "NAME LINE DOC", DOC 1 when
# the declaration has a comment of its own (on its line, or ending on the
# line above it or above the run of declarations and typedefs it is in),
# else 0.  Comments are left out before looking, so a function a comment
# names is not declared by it.  Used by dist/version-script.sh (what
# libtilefit.so exports) and tests/lint/public.sh (that each is documented).
#   usage: awk -f dist/declared.awk HEADER
{
  line = $0
  code = ""
  had_comment = incomment
  while (line != "") {
    if (incomment) {
      i = index(line, "*/")
      if (!i)
        break
      line = substr(line, i + 2)
      incomment = 0
    } else {
      i = index(line, "/*")
      if (!i) {
        code = code line
        break
      }
      had_comment = 1
      code = code substr(line, 1, i - 1)
      line = substr(line, i + 2)
      incomment = 1
    }
  }
  decl = code !~ /^[[:space:]]*#/ && match(code, /tf_[A-Za-z0-9_]*[[:space:]]*\(/)
  typedef = code ~ /^typedef /
  if (decl) {
    name = substr(code, RSTART, RLENGTH)
    sub(/[[:space:]]*\($/, "", name)
    print name, NR, (had_comment || documented) ? 1 : 0
  }
  # what the next line's declaration inherits: a comment that ends here,
  # or this line's, when this line is a declaration or a typedef
  if (code ~ /^[[:space:]]*$/ && had_comment && !incomment)
    documented = 1
  else if (!(decl || typedef))
    documented = 0
  else
    documented = documented || had_comment
}
