import { describe, expect, it } from "vitest";
import { optionTable, readOption } from "./shell-options.js";

const TIMEOUT = optionTable({ flag: "-v --verbose", value: "-s -k --signal --kill-after" });
const PERL = optionTable({
  flag: "-n -p",
  program: "-e",
  loads: "-I",
  attached: { "-i": /.*/, "-l": /^[0-7]*/ },
});

describe("readOption: a program's options, read as the program reads them", () => {
  it.each([
    [["-s", "KILL", "10"], { name: "-s", value: ["KILL"] }, 2],
    [["-sKILL", "10"], { name: "-s", value: ["KILL"] }, 1],
    [["--signal=KILL", "10"], { name: "--signal", value: ["KILL"] }, 1],
    [["--signal", "KILL", "10"], { name: "--signal", value: ["KILL"] }, 2],
  ])("%j: the value is its own word or attached", (args, option, next) => {
    const read = readOption(args, 0, TIMEOUT);
    expect(read.found).toEqual([{ ...option, kind: "value" }]);
    expect(read.next).toBe(next);
  });

  it("a cluster reads letters until one takes a value: -vs KILL", () => {
    expect(readOption(["-vs", "KILL"], 0, TIMEOUT)).toEqual({
      found: [
        { name: "-v", kind: "flag", value: [] },
        { name: "-s", kind: "value", value: ["KILL"] },
      ],
      next: 2,
    });
  });

  it("an attached value takes only what the option accepts, and the cluster goes on: -lne, -pi.bak", () => {
    expect(readOption(["-lne", "print"], 0, PERL).found?.map((option) => option.name)).toEqual([
      "-l",
      "-n",
      "-e",
    ]);
    expect(readOption(["-pi.bak"], 0, PERL).found).toEqual([
      { name: "-p", kind: "flag", value: [] },
      { name: "-i", kind: "attached", value: [".bak"] },
    ]);
    expect(readOption(["-Ilib", "x.pl"], 0, PERL)).toEqual({
      found: [{ name: "-I", kind: "loads", value: ["lib"] }],
      next: 1,
    });
  });

  it("an option not in the table is unknown, never guessed: abbreviations, a value on a flag", () => {
    expect(readOption(["--sig", "KILL"], 0, TIMEOUT)).toEqual({ unknown: "--sig" });
    expect(readOption(["-vx"], 0, TIMEOUT)).toEqual({ unknown: "-x" });
    expect(readOption(["--verbose=yes"], 0, TIMEOUT)).toEqual({ unknown: "--verbose=yes" });
  });
});
