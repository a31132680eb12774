/*  Bird sightings, the demo's Prolog event source (SWI-Prolog module).

    One tool, report_sighting, records that someone saw a bird somewhere; each report raises a
    bird_sighted occurrence (the Events extension, SEP-3415) that every client polling or
    watching bird_sighted receives, or only those watching that bird when their subscription
    names one. The birds are those the expert of the bridge's examples/birds.pl knows: the demo
    loads that file beside this one, so the two never disagree about which birds there are.
*/
:- module(sightings, []).

% The expert's birds, in its order.
known_birds(Birds) :- findall(Bird, birds:bird(Bird, _), Birds).

events([
    event(bird_sighted, [
        title("Bird sighted"),
        description("Someone reported a bird with report_sighting. Subscribe with a bird to hear of that bird only."),
        input({type-object, properties-{bird-{type-string, enum-Birds, description-"Only sightings of this bird (leave it out for every bird)"}}}),
        payload({type-object,
                 properties-{bird-{type-string}, place-{type-string}, count-{type-integer, minimum-1}},
                 required-[bird, place, count]}),
        modes([poll, push]),
        replay([count(200), age_ms(3600000)])
    ])
]) :- known_birds(Birds).

tools([tool(report_sighting, report_sighting, 3)]).

:- mode(report_sighting(+atom, +atom, +positive_integer), one).
:- info(report_sighting/3, [
       title is 'Report a sighting',
       comment is 'Reports a bird seen somewhere; everyone watching bird_sighted hears of it.',
       argnames is [bird, place, count]
   ]).

% Listed from the expert's birds, so a form offers exactly those; count may be left out.
input_schema(report_sighting, {type-object,
        properties-{bird-{type-string, enum-Birds, description-"The bird you saw"},
                    place-{type-string, minLength-1, description-"Where you saw it"},
                    count-{type-integer, minimum-1, default-1, description-"How many"}},
        required-[bird, place]}) :-
    known_birds(Birds).

output_schema(report_sighting, {type-object, properties-{message-{type-string}}, required-[message]}).

tool_call(report_sighting, Args, structured([text(Text)], {message-Text})) :-
    memberchk(bird-Bird, Args),
    memberchk(place-Place, Args),
    (   memberchk(count-Count, Args) -> true ; Count = 1 ),
    % Matched on the bird, so a subscription naming another bird does not hear of it.
    mcp_emit(bird_sighted, {bird-Bird, place-Place, count-Count}, [match({bird-Bird})]),
    format(atom(Text), 'Sighting reported: ~w (~w) at ~w.', [Bird, Count, Place]).
