/**
 * The scheduler: hosts, exclusive leases with growing epochs, the line of demands, preemption
 * and quarantine.
 *
 * <p>Dependencies run one way: {@code experiment -> schedule -> plan}. The scheduler is the
 * lower layer, a fleet allocator that serves whoever asks for hosts; it knows a demand only as
 * an id, a selector, a priority and an {@code ActorRef<}{@link
 * dev.abfleet.controller.schedule.LeaseHolder.Message}{@code >}, and the messages it sends its
 * lease holders ({@link dev.abfleet.controller.schedule.LeaseHolder}) live here, with the
 * sender. The experiment entity, a client of the scheduler, imports this package and hands the
 * scheduler a message adapter. The other way round would make the scheduler, a singleton, reach
 * experiments through their package, and any other future lease holder would have to pose as an
 * experiment. {@code PackageDirectionTest} fails if this package names the experiment package.
 */
package dev.abfleet.controller.schedule;
