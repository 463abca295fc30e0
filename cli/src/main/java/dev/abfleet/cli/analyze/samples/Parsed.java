package dev.abfleet.cli.analyze.samples;

import java.util.List;

/** What a reader got from its files: the samples, and every line it could not read. */
public record Parsed(List<Sample> samples, List<ParseError> errors) {}
