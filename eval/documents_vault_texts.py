"""The texts of the documents vault's PDFs (eval/make_documents_vault.py writes them): self-written, Latin-1."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Page:
    """One text page: a heading line (bold) and its paragraphs (a paragraph's lines are wrapped by fpdf2)."""

    heading: str
    paragraphs: Sequence[str]


@dataclass(frozen=True, slots=True)
class Document:
    path: str
    title: str
    pages: Sequence[Page]
    footer: str = ""
    """Printed at the bottom of every page, with the page number after it; "" for none."""
    slides: bool = False
    """Landscape, a large font and short lines, like exported lecture slides."""


BOILER = Document(
    path="Manuals/Boiler manual.pdf",
    title="Calder Therma C24 user guide",
    footer="Calder Therma C24 - user guide for the occupier - page",
    pages=(
        Page(
            "Calder Therma C24 combination boiler",
            (
                "User guide for the occupier.",
                "Keep this guide near the boiler and hand it over to the next occupier when you move out.",
                "Contents: 1 Safety. 2 The control panel. 3 Water pressure. 4 Fault codes. "
                "5 Frost protection and holidays. 6 Servicing and warranty. 7 Technical data.",
            ),
        ),
        Page(
            "1 Safety",
            (
                "If you smell gas, do not operate light switches or use a naked flame. Open the doors and windows, "
                "turn off the gas at the meter and call the gas emergency line from outside the building.",
                "Do not block the air vents or the flue terminal on the outside wall.",
                "Only a registered gas engineer may remove the front casing. There are no parts behind it that "
                "you can service yourself.",
                "Children must not play with the boiler or its controls.",
            ),
        ),
        Page(
            "2 The control panel",
            (
                "The panel has two dials and a display. The left dial sets the radiator temperature from 30 to 80 "
                "degrees C. The right dial sets the hot tap water temperature from 35 to 60 degrees C.",
                "The eco setting on the right dial keeps the hot water at 45 degrees C and uses the least gas.",
                "The display shows the water pressure while the boiler is idle, and a flame symbol while the "
                "burner is on.",
                "Press and hold the reset button for three seconds to restart the boiler after a lockout.",
            ),
        ),
        Page(
            "3 Water pressure",
            (
                "With the heating cold, the pressure gauge should read between 1.0 and 1.5 bar. Below 0.5 bar the "
                "boiler stops and shows fault code E119.",
                "To top up the pressure, open both filling loop valves under the boiler slowly until the gauge "
                "reads 1.3 bar, then close both valves firmly.",
                "If you need to top up more than twice a month, there is a leak or the expansion vessel needs "
                "recharging: call your service engineer.",
                "A pressure above 2.5 bar opens the safety valve, and water drips from the discharge pipe outside.",
            ),
        ),
        Page(
            "4 Fault codes",
            (
                "E110 Overheat thermostat tripped. Press reset; if the code returns, call an engineer.",
                "E119 Water pressure too low. Top up to 1.3 bar as described in section 3.",
                "E133 No flame detected after five ignition attempts. Check that the gas supply is on, then press "
                "reset.",
                "E160 Fan fault. Call an engineer.",
                "E168 Control board fault. Call an engineer.",
                "A flashing display without a code means that frost protection is running.",
            ),
        ),
        Page(
            "5 Frost protection and holidays",
            (
                "Leave the boiler switched on at the mains when you go away. If the water inside drops below 5 "
                "degrees C, the pump and burner run until it reaches 10 degrees C.",
                "For absences of up to four weeks, turn both dials to the snowflake symbol. Do not turn off the gas.",
                "In hard frost the condensate pipe outside can freeze and block. The boiler then shows E133 after "
                "several restarts. Pour warm, not boiling, water over the pipe to thaw it, then press reset.",
            ),
        ),
        Page(
            "6 Servicing and warranty",
            (
                "Have the boiler serviced once a year by a registered gas engineer, and keep the service record "
                "in the logbook at the back of this guide.",
                "The warranty runs for seven years from installation if the boiler is registered with Calder "
                "within 30 days and serviced every twelve months. Without registration the warranty is two years.",
                "The magnetic system filter under the boiler should be cleaned at every service.",
            ),
        ),
        Page(
            "7 Technical data",
            (
                "Model: Calder Therma C24",
                "Heat output to radiators: 24 kW",
                "Hot water flow rate at a 35 degrees C rise: 9.8 litres per minute",
                "Gas: natural gas G20",
                "Maximum system pressure: 3 bar",
                "Weight, empty: 29 kg",
                "Dimensions: 700 x 400 x 280 mm",
            ),
        ),
    ),
)

ARTICLE = Document(
    path="Reading/Papers/Spacing in self-study.pdf",
    title="Spacing and self-testing in adult vocabulary learning",
    pages=(
        Page(
            "Spacing and self-testing in adult vocabulary learning: a six-week diary study",
            (
                "M. Varga and L. Osei, Department of Adult Education, Northfield College",
                "Abstract. We asked 24 adult learners of Portuguese to study 120 new words over six weeks, either "
                "in massed sessions or spread over expanding intervals. Learners who spread their reviews recalled "
                "68 percent of the words on a delayed test four weeks after the last session, against 41 percent "
                "for massed study. Self-testing with flashcards mattered more than the total time spent studying.",
                "Keywords: spacing effect, retrieval practice, adult learners, self-study",
            ),
        ),
        Page(
            "1 Introduction",
            (
                "That reviews spread out in time are remembered better than the same reviews crammed together is "
                "one of the oldest findings about memory. Most of the evidence, however, comes from students "
                "tested in a laboratory a few days after a single session.",
                "Adults who learn a language at home study in short, irregular sessions around work and family. "
                "We wanted to know whether spacing still helps when the schedule is kept by the learners "
                "themselves, and whether it survives missed days.",
            ),
        ),
        Page(
            "2 Method",
            (
                "Participants were recruited through two evening language schools. Each kept a short diary of "
                "every study session: the date, the minutes studied, and how many cards were answered correctly.",
                "The spaced group reviewed each word after 1, 3, 7 and 14 days. The massed group studied the same "
                "words in two long sessions per week.",
                "Both groups studied for the same total time, about 30 minutes a day, and took the same delayed "
                "test: a Portuguese word on the screen, to be translated into English.",
            ),
        ),
        Page(
            "3 Results",
            (
                "On the delayed test the spaced group recalled 68 percent of the words and the massed group 41 "
                "percent. The gap was largest for abstract words such as verbs of thinking.",
                "Twelve of the 24 diaries showed skipped days in week four, which the learners put down to work "
                "deadlines. Skipping cost the spaced group little: a review done one day late was still recalled "
                "in most cases.",
                "Learners who looked at the answer before trying to recall it gained least, whatever their group.",
            ),
        ),
        Page(
            "4 Discussion and limitations",
            (
                "The sample is small and self-selected, and all participants were already motivated enough to "
                "enrol in an evening class. The diaries were self-reported, so study time may be overstated. We "
                "did not control for prior knowledge of Spanish, which helps with Portuguese vocabulary.",
                "Practical advice for self-learners: keep sessions short, test yourself before looking at the "
                "answer, and let the intervals between reviews grow.",
                "This article is invented test material: the study, its authors and its figures are not real.",
            ),
        ),
    ),
)

TENANCY = Document(
    path="Home/Tenancy agreement 2024.pdf",
    title="Residential tenancy agreement, Flat 4, 31 Mill Lane",
    footer="Tenancy agreement, Flat 4, 31 Mill Lane - initials GL / JW - page",
    pages=(
        Page(
            "Residential tenancy agreement",
            (
                "Between the landlord, Greta Lindqvist, 12 Harbour Row, and the tenant, Jonas Weller.",
                "The flat: second floor, Flat 4, 31 Mill Lane, two rooms, kitchen, bathroom and hall, with "
                "cellar compartment number 7 and shared use of the drying room.",
                "The tenancy starts on 1 March 2024 and runs for an indefinite period.",
            ),
        ),
        Page(
            "Section 2 Rent and running costs",
            (
                "The basic rent is 940 EUR per month. An advance payment of 185 EUR per month covers heating, hot "
                "water, cold water, waste collection and the building insurance.",
                "The total of 1,125 EUR is due in advance by the third working day of each month, paid into the "
                "landlord's account.",
                "The running costs are settled once a year; the statement for a calendar year is sent by 31 "
                "December of the following year.",
            ),
        ),
        Page(
            "Section 3 Deposit",
            (
                "The tenant pays a deposit of 2,820 EUR, three times the basic rent. It may be paid in three equal "
                "monthly instalments, the first at the start of the tenancy.",
                "The landlord keeps the deposit in a separate savings account and returns it with interest within "
                "six months of the end of the tenancy, less any amounts still owed.",
            ),
        ),
        Page(
            "Section 4 Repairs and upkeep",
            (
                "The tenant pays for small repairs to items in frequent use, such as taps, light switches, door "
                "handles and window catches, up to 100 EUR per repair and at most 400 EUR in one calendar year.",
                "The tenant must report any damage to the landlord without delay.",
                "The boiler is serviced once a year by an engineer chosen by the landlord; the tenant must give "
                "access on the agreed date.",
                "Drilling holes in the tiles of the bathroom and the kitchen is not allowed.",
            ),
        ),
        Page(
            "Section 5 Pets, subletting and notice",
            (
                "Small animals in cages or tanks may be kept without asking. Cats and dogs need the landlord's "
                "written consent.",
                "Subletting part of the flat needs the landlord's consent, which may not be refused without good "
                "reason.",
                "The tenant may end the tenancy with three months' notice in writing. The landlord may only give "
                "notice on the grounds the law allows.",
            ),
        ),
        Page(
            "Signatures and handover receipt",
            (
                "Signed at 31 Mill Lane on 14 February 2024 by Greta Lindqvist, landlord, and Jonas Weller, tenant.",
                "Keys handed over on 1 March 2024: two flat keys, one building key, one cellar key and one "
                "letterbox key.",
                "Meter readings at handover: electricity 20431 kWh, gas 8812.6 cubic metres, cold water 311.4 "
                "cubic metres.",
            ),
        ),
    ),
)

SLIDES = Document(
    path="Study/Lecture 4 - Consensus.pdf",
    title="Distributed Systems, Lecture 4: Consensus and Raft",
    slides=True,
    pages=(
        Page("Distributed Systems", ("Lecture 4: Consensus and Raft", "Winter term 2024/25")),
        Page(
            "Why consensus?",
            (
                "- Several servers must agree on one sequence of commands",
                "- Used for configuration stores, locks and leader election",
                "- Must keep working while a minority of servers fail",
            ),
        ),
        Page(
            "The FLP result (informal)",
            (
                "- Fully asynchronous network: no deterministic protocol can guarantee agreement if even one "
                "process may crash",
                "- Practical systems escape it with timeouts",
            ),
        ),
        Page(
            "Raft in one slide",
            (
                "- One leader, all other servers are followers",
                "- The leader accepts client commands and replicates its log",
                "- Time is divided into terms, numbered 1, 2, 3 ...",
            ),
        ),
        Page(
            "Leader election",
            (
                "- Followers expect a heartbeat from the leader",
                "- No heartbeat within the election timeout: become a candidate, vote for yourself, ask for votes",
                "- Randomised timeouts of 150 to 300 ms make split votes rare",
            ),
        ),
        Page(
            "Log replication",
            (
                "- The leader appends the command and sends AppendEntries to all followers",
                "- An entry is committed once a majority has stored it",
                "- Committed entries are applied to the state machine in log order",
            ),
        ),
        Page(
            "Quorums",
            (
                "- A cluster of 5 servers tolerates 2 failures",
                "- Any two majorities overlap in at least one server",
                "- A sixth server does not tolerate any more failures",
            ),
        ),
        Page(
            "Safety: the election restriction",
            (
                "- A candidate only wins if its log is at least as up to date as a majority's",
                "- So a new leader holds every committed entry",
            ),
        ),
        Page(
            "Summary",
            (
                "- Consensus: agreement on a log despite failures",
                "- Raft splits it into election, replication and safety",
                "- Next week: membership changes and log compaction",
            ),
        ),
        Page(
            "Exercise sheet 4",
            (
                "- Due before the tutorial on 28 November",
                "- Question 2: simulate an election with timeouts of 170, 220 and 290 ms",
            ),
        ),
    ),
)

TEXT_DOCUMENTS = (BOILER, ARTICLE, TENANCY, SLIDES)

SCAN_PATH = "Home/Scans/Bike shop receipt.pdf"
SCAN_PAGES = (
    (
        "CYCLE CORNER",
        "Workshop and parts",
        "",
        "Receipt no. 4471      2025-02-08",
        "",
        "Chain, 11 speed              34.90",
        "Cassette 11-34               52.50",
        "Fitting                      15.00",
        "",
        "TOTAL                       102.40",
        "Paid by card",
    ),
    (
        "CYCLE CORNER",
        "Warranty",
        "",
        "Parts: 2 years from the date on the receipt.",
        "Keep this receipt.",
    ),
)
