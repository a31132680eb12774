/** <module> Logtalk's predicate directives in plain SWI-Prolog modules:

        :- mode(add(+integer, +integer, -integer), one).
        :- info(add/3, [comment is 'Adds.', argnames is ['A', 'B', 'Sum']]).

    SWI-Prolog has neither directive, so a module using them would fail to load. The expansion
    below records them (per module, in declaration order) and removes them from the source, so
    auto-dispatch and schema inference read the same facts in both flavours.
*/
:- module(rondo_directives, [module_mode/3, module_info/3, mode_location/4]).

:- dynamic mode_decl/3, info_decl/3, mode_location/4.

% The mode operators of Logtalk, so `?integer`, `++atom` and `@true` parse in any module.
:- op(200, fy, user:(?)).
:- op(200, fy, user:(@)).
:- op(200, fy, user:(++)).
:- op(200, fy, user:(--)).

:- multifile user:term_expansion/2.
:- dynamic user:term_expansion/2.

user:term_expansion((:- mode(Template, Det)), []) :-
    prolog_load_context(module, M),
    assertz(mode_decl(M, Template, Det)),
    (   source_location(File, Line) -> assertz(mode_location(M, Template, File, Line)) ; true ).
user:term_expansion((:- info(PI, Pairs)), []) :-
    prolog_load_context(module, M),
    maplist(info_key_value, Pairs, KVs),
    assertz(info_decl(M, PI, KVs)).
user:term_expansion((:- info(_EntityInfo)), []).

% Logtalk reports info pairs as Key(Value); store them the same way.
info_key_value(Key is Value, KV) :- !, KV =.. [Key, Value].
info_key_value(KV, KV).

%!  module_mode(+Module, ?Head, -Template) is nondet.
%   The mode templates of Head's predicate in Module, first declared first.
module_mode(M, Head, Template) :-
    functor(Head, F, A), functor(Template, F, A),
    mode_decl(M, Template, _).

%!  mode_location(?Module, ?Template, ?File, ?Line) is nondet.
%   Where each mode/2 directive of a module was read, for `rondo-logtalk check`.

%!  module_info(+Module, +Head, -Pairs) is semidet.
%   The info/2 list of Head's predicate in Module, as Key(Value) terms.
module_info(M, Head, Pairs) :-
    functor(Head, F, A),
    info_decl(M, F/A, Pairs), !.
