# bash completion for tilefit: commands, each command's options and what
# each option's value is, machine and workset names, and the params,
# variables and placed buffers of the workset named on the line.  Every
# word offered comes from the tilefit being completed: `tilefit completion
# [CMD]` prints its commands, and a command's options with the kind of
# value each takes, from the same option table its --help and its parser
# use (solver/cli/options.c); names come from `tilefit machines`, `tilefit
# worksets [NAME]`.  So the completion offers what that binary accepts and
# keeps no list of its own.
# Installed as PREFIX/share/bash-completion/completions/tilefit.

# Shipped names: the first word of each line of `tilefit machines|worksets`.
_tilefit_names() {
  "$1" "$2" 2>/dev/null | awk '{ print $1 }'
}

# The params (kind "params") or variables ("choose count" or "choose") of a
# workset, from the sections of `tilefit worksets NAME`.
_tilefit_symbols() {
  "$1" worksets "$2" 2>/dev/null | awk -v kinds=" $3 " '
    /^[a-z]+:$/ { sub(/:$/, ""); inside = index(kinds, " " $0 " ") > 0; next }
    /^  [A-Za-z_]/ && inside { print $1 }
    /^[^ ]/ { inside = 0 }'
}

# BUF=MEM for each placed buffer and each of its candidate memories (the
# "place" of its line under buffers: in `tilefit worksets NAME`).
_tilefit_places() {
  "$1" worksets "$2" 2>/dev/null | awk '
    /^buffers:$/ { inside = 1; next }
    /^[^ ]/ { inside = 0 }
    inside {
      for (i = 3; i < NF; i++)
        if ($i == "place") { n = split($(i + 1), m, ","); for (k = 1; k <= n; k++) print $1 "=" m[k] }
    }'
}

# The workset given on the line so far with -w or --workset.
_tilefit_workset() {
  local i
  for ((i = 2; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      -w | --workset) echo "${COMP_WORDS[i + 1]}"; return ;;
      --workset=*) echo "${COMP_WORDS[i]#--workset=}"; return ;;
    esac
  done
}

# NAME= for each symbol, with no space after it: the value comes next.
_tilefit_assignments() {
  local ws
  ws=$(_tilefit_workset)
  [[ -n $ws ]] || return
  COMPREPLY=($(compgen -W "$(_tilefit_symbols "$1" "$ws" "$2" | sed 's/$/=/')" -- "$cur"))
  compopt -o nospace 2>/dev/null
}

# What a value of kind $2 (a line of `tilefit completion CMD`: the kind,
# then its words) may be.
_tilefit_value() {
  local bin=$1 kind=$2 ws
  shift 2
  case $kind in
    machine) COMPREPLY=($(compgen -W "$(_tilefit_names "$bin" machines)" -- "$cur") $(compgen -f -X '!*.json' -- "$cur")) ;;
    workset) COMPREPLY=($(compgen -W "$(_tilefit_names "$bin" worksets)" -- "$cur") $(compgen -f -X '!*.json' -- "$cur")) ;;
    param) _tilefit_assignments "$bin" "params" ;;
    fix) _tilefit_assignments "$bin" "choose count" ;;
    domain) _tilefit_assignments "$bin" "choose" ;;
    choose) _tilefit_assignments "$bin" "choose"; COMPREPLY=("${COMPREPLY[@]%=}"); compopt +o nospace 2>/dev/null ;;
    place) ws=$(_tilefit_workset); [[ -z $ws ]] || COMPREPLY=($(compgen -W "$(_tilefit_places "$bin" "$ws")" -- "$cur")) ;;
    file) COMPREPLY=($(compgen -f -- "$cur")) ;;
    words) COMPREPLY=($(compgen -W "$*" -- "$cur")) ;;
  esac
}

_tilefit() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} bin=${COMP_WORDS[0]} table
  local -a cmd value
  COMPREPLY=()
  command -v "$bin" >/dev/null 2>&1 || bin=tilefit
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "$("$bin" completion 2>/dev/null | awk '$1 == "command" { print $2 }') --help --version" -- "$cur"))
    return
  fi
  cmd=("${COMP_WORDS[1]}")
  case ${cmd[0]} in
    help | completion) ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$("$bin" completion 2>/dev/null | awk '$1 == "command" { print $2 }')" -- "$cur")); return ;;
    plot) ((COMP_CWORD > 2)) && cmd+=("${COMP_WORDS[2]}") ;; # its kind, then the kind's own options
  esac
  table=$("$bin" completion "${cmd[@]}" 2>/dev/null) || return
  if [[ $prev == -* ]]; then # the option's value: its kind and words, after "option --LONG -S"
    read -r -a value <<<"$(awk -v o="$prev" '$1 == "option" && ($2 == o || $3 == o) { $1 = $2 = $3 = ""; print; exit }' <<<"$table")"
    if ((${#value[@]})) && [[ ${value[0]} != none ]]; then
      _tilefit_value "$bin" "${value[@]}"
      return
    fi
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(awk '$1 == "option" { print $2; if ($3 != "-") print $3 }' <<<"$table")" -- "$cur"))
    return
  fi
  case $(awk '$1 == "operands" { print $2 }' <<<"$table") in
    machines) _tilefit_value "$bin" machine ;;
    worksets) _tilefit_value "$bin" workset ;;
    files) _tilefit_value "$bin" file ;;
    kinds) ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$(awk '$1 == "kind" { print $2 }' <<<"$table")" -- "$cur")) ;;
  esac
}
complete -F _tilefit tilefit
