/** <module> Logtalk result terms -> Rondo's vocabulary encoding (version 1): a curly object whose `kind`
    is the functor name and whose other members are the arguments by name. Node validates every
    value again; this side only has to be faithful, and to fail loudly on a shape it does not know.
*/
:- module(rondo_vocab, [
    tool_value/2, prompt_value/2, resource_value/2, round_value/3,
    input_response_term/2, text_of/2, state_text/2, state_term/2, sampling_value/2,
    form_schema/2
]).

:- use_module(rondo_json, [curly_pairs/2, curly_get/3]).
:- use_module(rondo_errors, [invalid_result/2]).
:- use_module(library(lists)).

obj(Pairs, Curly) :- curly_pairs(Curly, Pairs).

bad(Kind, Term) :- invalid_result(Kind, Term).

%!  text_of(+Term, -Text) is det.
%   Text of a text(T) / error(E) argument: atoms and strings as they are, other terms written.
text_of(T, T) :- atom(T), !.
text_of(T, T) :- string(T), !.
text_of(T, A) :- format(atom(A), '~w', [T]).

%!  tool_value(+Result, -Json) is det.
tool_value(results(Items), J) :- !,
    must_list(tool, Items), maplist(content_value, Items, Is),
    obj([kind-results, items-Is], J).
tool_value(structured(SC), J) :- !,
    obj([kind-structured, structured-SC], J).
tool_value(structured(Items, SC), J) :- !,
    must_list(tool, Items), maplist(content_value, Items, Is),
    obj([kind-structured, structured-SC, items-Is], J).
tool_value(Item, J) :- content_value(Item, J).

must_list(_, L) :- is_list(L), !.
must_list(Kind, L) :- bad(Kind, L).

%!  content_value(+Item, -Json) is det.
content_value(V, _) :- var(V), !, bad(content, V).
content_value(text(T), J) :- !, text_of(T, A), obj([kind-text, text-A], J).
content_value(error(E), J) :- !, text_of(E, A), obj([kind-error, text-A], J).
content_value(resource_link(U, N), J) :- !,
    obj([kind-resource_link, uri-U, name-N], J).
content_value(resource_link(U, N, D, M), J) :- !,
    optional([description-D, mimeType-M], Extra),
    obj([kind-resource_link, uri-U, name-N|Extra], J).
content_value(image(Data, Mime), J) :- !, obj([kind-image, data-Data, mimeType-Mime], J).
content_value(audio(Data, Mime), J) :- !, obj([kind-audio, data-Data, mimeType-Mime], J).
content_value(resource(C), J) :- !, resource_content(C, CJ), obj([kind-resource, contents-CJ], J).
content_value(annotated(Item, Annotations), J) :- !,
    content_value(Item, J0), curly_pairs(J0, Ps),
    append(Ps, [annotations-Annotations], Ps1), obj(Ps1, J).
content_value(Other, _) :- bad(content, Other).

% Optional arguments given as a variable, `none` or '' are left out, as the encoding asks.
optional([], []).
optional([K-V|T], Out) :-
    (   absent(V) -> Out = Rest ; Out = [K-V|Rest] ),
    optional(T, Rest).

absent(V) :- var(V), !.
absent(none).
absent('').
absent(@(null)).

%!  prompt_value(+Result, -Json) is det.
prompt_value(messages(Ms), J) :- !,
    must_list(prompt, Ms), maplist(message_value, Ms, MJ),
    obj([kind-messages, messages-MJ], J).
prompt_value(messages(D, Ms), J) :- !,
    must_list(prompt, Ms), maplist(message_value, Ms, MJ),
    text_of(D, DA), obj([kind-messages, description-DA, messages-MJ], J).
prompt_value(Other, _) :- bad(prompt, Other).

message_value(message(Role, Content), J) :- !,
    (   atomic(Content), \+ Content == [] -> C = text(Content) ; C = Content ),
    content_value(C, CJ),
    obj([kind-message, role-Role, content-CJ], J).
message_value(Other, _) :- bad(message, Other).

%!  resource_value(+Result, -Json) is det.
resource_value(contents(Cs), J) :- !,
    must_list(resource, Cs), maplist(resource_content, Cs, CJ),
    obj([kind-contents, contents-CJ], J).
resource_value(Other, _) :- bad(resource, Other).

resource_content(text_content(U, M, T), J) :- !, resource_content(text_content(U, M, T, none), J).
resource_content(blob_content(U, M, B), J) :- !, resource_content(blob_content(U, M, B, none), J).
resource_content(text_content(U, M, T, Meta), J) :- !,
    text_of(T, A), optional([mimeType-M, meta-Meta], Extra),
    obj([kind-text_content, uri-U, text-A|Extra], J).
resource_content(blob_content(U, M, B, Meta), J) :- !,
    optional([mimeType-M, meta-Meta], Extra),
    obj([kind-blob_content, uri-U, blob-B|Extra], J).
resource_content(Other, _) :- bad(resource_content, Other).

%!  round_value(+Kind, +RoundResult, -Json) is det.
%   Kind is tool, prompt or resource; plain results are wrapped as complete(Result).
round_value(Kind, complete(R), J) :- !,
    kind_value(Kind, R, RJ), obj([kind-complete, result-RJ], J).
round_value(_, input_required(Requests, State), J) :- !,
    must_list(input_required, Requests),
    maplist(input_request_value, Requests, RJ),
    (   absent_state(State) -> Extra = [] ; state_text(State, Text), Extra = [state-{term-Text}] ),
    obj([kind-input_required, requests-RJ|Extra], J).
round_value(Kind, R, J) :- kind_value(Kind, R, J).

absent_state(S) :- var(S), !.
absent_state(none).

kind_value(tool, R, J) :- tool_value(R, J).
kind_value(prompt, R, J) :- prompt_value(R, J).
kind_value(resource, R, J) :- resource_value(R, J).

input_request_value(input_request(Key, R), J) :- !,
    request_body(R, RJ), obj([kind-input_request, key-Key, request-RJ], J).
input_request_value(Other, _) :- bad(input_request, Other).

request_body(form_elicitation(M, S0), J) :- !,
    form_schema(S0, S), obj([kind-form_elicitation, message-M, schema-S], J).
request_body(url_elicitation(M, U), J) :- !, obj([kind-url_elicitation, message-M, url-U], J).
request_body(sampling(Ms, Prefs, System, Include), J) :- !,
    request_body(sampling(Ms, Prefs, System, Include, none), J).
request_body(sampling(Ms, Prefs, System, Include, MaxTokens), J) :- !,
    must_list(sampling, Ms), maplist(sampling_message, Ms, MJ),
    optional([modelPreferences-Prefs, systemPrompt-System, includeContext-Include,
              maxTokens-MaxTokens], Extra),
    obj([kind-sampling, messages-MJ|Extra], J).
request_body(roots, {kind-roots}) :- !.
request_body(Other, _) :- bad(input_request, Other).

%!  form_schema(+Schema, -Complete) is det.
%   The schema of a form, with the `properties` every client requires (Logtalk code often
%   writes just {type-object} for a form with no fields).
form_schema({}, {type-object, properties-{}}) :- !.
form_schema(S, S) :- curly_get(S, properties, _), !.
form_schema({Members}, {Members, properties-{}}) :- !.
form_schema(S, S).

%!  sampling_value(+Sampling, -Json) is det.
%   A sampling(...) request body, for mcp_sample/2 (which asks the client at once).
sampling_value(S, J) :- S = sampling(_, _, _, _), !, request_body(S, J).
sampling_value(S, J) :- S = sampling(_, _, _, _, _), !, request_body(S, J).
sampling_value(Other, _) :- bad(sampling, Other).

sampling_message(message(Role, Content), J) :- !,
    message_value(message(Role, Content), MJ), curly_get(MJ, content, CJ),
    obj([role-Role, content-CJ], J).
sampling_message({_} = M, M) :- !.
sampling_message(Other, _) :- bad(sampling_message, Other).

%!  input_response_term(+Json, -Term) is det.
%   A vocabulary input response -> accept(Content) | decline | cancel | the raw result object.
input_response_term(J, T) :-
    curly_get(J, kind, Kind),
    response_term(Kind, J, T).

response_term(accept, J, accept(C)) :- !, ( curly_get(J, content, C) -> true ; C = {} ).
response_term(decline, _, decline) :- !.
response_term(cancel, _, cancel) :- !.
response_term(_, J, Raw) :-
    curly_pairs(J, Ps), exclude([K-_]>>(K == kind), Ps, Rest), curly_pairs(Raw, Rest).

%!  state_text(+State, -Text) is det.
%   RequestState terms travel as canonical text, so they come back as the same term
%   (variables shared as before, operators and quoting preserved).
state_text(State, Text) :-
    format(string(Text), '~k', [State]).

%!  state_term(+Json, -State) is det.
state_term(J, State) :-
    (   J == @(null) -> State = none
    ;   curly_get(J, term, Text), atom(Text)
    ->  term_string(State, Text)
    ;   State = J
    ).
