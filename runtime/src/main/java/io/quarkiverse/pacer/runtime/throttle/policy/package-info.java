/**
 * What a throttling policy is: the build-time definitions of policies and methods, the policies in force
 * (annotation merged with configuration), the rules their values obey, and how keys are encoded.
 */
package io.quarkiverse.pacer.runtime.throttle.policy;
