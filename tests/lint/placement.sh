#!/bin/sh
# How a placement is stored is known in one file: model/bind/place_bind.c
# (and one inline reader in its header) reads the bound problem's fields
# for the first placement variable and each buffer's placement variable,
# declared in model/bind/problem.h; every other file reads placements
# through its accessor (place_bind.h:
# tf_place_nnumeric, tf_place_count, tf_place_var, tf_place_is_var,
# tf_place_of_buffer, tf_place_memory).  Prints each other use
# and exits 1.  The pattern is spelled with [_] so that this file does not
# match itself.
set -u
hits=$(grep -rnw -e 'place[_]first' -e 'place[_]var' model encode solver tests bench python dist docs *.md |
       grep -v '^model/bind/place_bind\.[ch]:\|^model/bind/problem\.h:')
if [ -n "$hits" ]; then
  printf '%s\n' "$hits"
  echo "lint: a placement read outside model/bind/place_bind.c (use its accessor, model/bind/place_bind.h)"
  exit 1
fi
